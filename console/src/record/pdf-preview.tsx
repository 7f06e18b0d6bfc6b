import { useEffect, useRef, useState } from 'react';

/**
 * The first page of a PDF, drawn by pdf.js (pdfjs-dist, loaded only when a PDF is shown). The
 * browser's own viewer cannot be used: downloads are sent as attachments in a sandbox, and the
 * console's CSP allows no <object> or <embed>.
 */
export function PdfPreview({ url, name }: { url: string; name: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | undefined;
    void (async () => {
      try {
        const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
        pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
        const task = pdfjs.getDocument({ url, withCredentials: true });
        destroy = () => void task.destroy();
        const document = await task.promise;
        const page = await document.getPage(1);
        if (cancelled || !canvas.current) return;
        const unscaled = page.getViewport({ scale: 1 });
        const viewport = page.getViewport({ scale: 96 / unscaled.width });
        canvas.current.width = viewport.width;
        canvas.current.height = viewport.height;
        await page.render({ canvas: canvas.current, viewport }).promise;
      } catch {
        if (!cancelled) setFailed(true);
      }
    })();
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [url]);
  if (failed)
    return (
      <span className="file-preview file-icon" aria-hidden="true">
        PDF
      </span>
    );
  return <canvas ref={canvas} className="file-preview" role="img" aria-label={`Preview of ${name}`} />;
}
