export const rowCount = 1_000_000;
export const columns = ['Name', 'Stage', 'Amount', 'City', 'E-mail', 'Created', 'Notes', 'Owner'];
// Synthetic cells: computed from the position, as a page of fetched records would be.
export function cellText(row, column) {
  switch (column) {
    case 0: return `Record ${row + 1}`;
    case 1: return ['lead', 'qualified', 'customer'][row % 3];
    case 2: return String((row * 37) % 10000);
    case 3: return ['Paris', 'Lyon', 'Berlin', 'Oslo'][row % 4];
    case 4: return `person${row}@example.com`;
    case 5: return new Date(1700000000000 + row * 60000).toISOString().slice(0, 10);
    case 6: return `note ${row % 97}`;
    default: return `user ${row % 13}`;
  }
}
window.__marks = {};
export function mark(name) { if (!(name in window.__marks)) requestAnimationFrame(() => requestAnimationFrame(() => { window.__marks[name] = performance.now(); })); }
