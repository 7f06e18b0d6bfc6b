import { useState, type ReactNode } from 'react';
import { downloadUrl, hasThumbnail, thumbnailUrl, type ThumbnailSize } from './file-urls';

interface FileThumbnailProps {
  tid: number;
  rid: number;
  fieldId: string;
  file: { path: string; type?: string };
  /** The thumbnail at 1× (the next size up at 2×, where there is one). */
  size: Extract<ThumbnailSize, 64 | 256>;
  className: string;
  alt: string;
  /** Shown instead when the server has no thumbnail of the file (not an image it reads, too large). */
  fallback?: ReactNode;
}

/**
 * An image attachment as the server's thumbnail (a few kilobytes, not the photo itself), in a
 * lazily loaded `<img>`: the browser fetches it only once it is near the screen, and revalidates
 * it with its ETag. An SVG is shown as itself.
 */
export function FileThumbnail({ tid, rid, fieldId, file, size, className, alt, fallback = null }: FileThumbnailProps) {
  const thumbnail = hasThumbnail(file.type);
  const src = thumbnail ? thumbnailUrl(tid, rid, fieldId, file.path, size) : downloadUrl(tid, rid, fieldId, file.path);
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === src) return <>{fallback}</>;
  const sharper = thumbnail && size === 256 ? `${src} 1x, ${thumbnailUrl(tid, rid, fieldId, file.path, 512)} 2x` : undefined;
  return <img className={className} src={src} srcSet={sharper} alt={alt} loading="lazy" decoding="async" onError={() => setFailed(src)} />;
}
