import '@glideapps/glide-data-grid/dist/index.css';
import { DataEditor, GridCellKind } from '@glideapps/glide-data-grid';
import { createRoot } from 'react-dom/client';
import { cellText, columns, mark, rowCount } from './data.js';
const cols = columns.map((title) => ({ title, width: 150 }));
function getCellContent([col, row]) {
  if (row === 0) mark('first');
  if (row >= rowCount / 2 - 50 && row <= rowCount / 2 + 50) mark('middle');
  const text = cellText(row, col);
  return { kind: GridCellKind.Text, data: text, displayData: text, allowOverlay: true };
}
createRoot(document.getElementById('root')).render(<DataEditor width="100vw" height="100vh" columns={cols} rows={rowCount} getCellContent={getCellContent} rowHeight={32} />);
window.__scrollMiddle = () => { const s = document.querySelector('.dvn-scroller'); s.scrollTop = s.scrollHeight / 2; };
