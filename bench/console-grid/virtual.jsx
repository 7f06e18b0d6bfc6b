import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { cellText, columns, mark, rowCount } from './data.js';
function Grid() {
  const parent = useRef(null);
  const rows = useVirtualizer({ count: rowCount, getScrollElement: () => parent.current, estimateSize: () => 32, overscan: 5 });
  const items = rows.getVirtualItems();
  if (items.length) { if (items[0].index === 0) mark('first'); if (items.some((i) => Math.abs(i.index - rowCount / 2) < 50)) mark('middle'); }
  return (
    <div ref={parent} id="scroller" style={{ height: '100vh', overflow: 'auto' }}>
      <div role="grid" aria-rowcount={rowCount} style={{ height: rows.getTotalSize(), position: 'relative' }}>
        {items.map((item) => (
          <div role="row" key={item.key} aria-rowindex={item.index + 1} style={{ position: 'absolute', top: 0, transform: `translateY(${item.start}px)`, height: 32, display: 'flex' }}>
            {columns.map((_, col) => <div role="gridcell" key={col} style={{ width: 150, flex: 'none', overflow: 'hidden', whiteSpace: 'nowrap', borderBottom: '1px solid #ddd', padding: '6px 8px', boxSizing: 'border-box' }}>{cellText(item.index, col)}</div>)}
          </div>
        ))}
      </div>
    </div>
  );
}
createRoot(document.getElementById('root')).render(<Grid />);
window.__scrollMiddle = () => { const s = document.getElementById('scroller'); s.scrollTop = s.scrollHeight / 2; };
