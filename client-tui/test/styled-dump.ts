import type { IBufferCell, Terminal } from '@xterm/headless';

/** The look of one cell as a short code: `b` bold, `d` dim, `i` italic, `fg3`, `bg1`... */
function styleCode(cell: IBufferCell): string {
  const codes: string[] = [];
  if (cell.isBold()) codes.push('b');
  if (cell.isDim()) codes.push('d');
  if (cell.isItalic()) codes.push('i');
  if (cell.isUnderline()) codes.push('u');
  if (cell.isInverse()) codes.push('v');
  if (cell.isStrikethrough()) codes.push('s');
  if (cell.isFgPalette()) codes.push(`fg${cell.getFgColor()}`);
  else if (cell.isFgRGB()) codes.push(`fg#${cell.getFgColor().toString(16).padStart(6, '0')}`);
  if (cell.isBgPalette()) codes.push(`bg${cell.getBgColor()}`);
  else if (cell.isBgRGB()) codes.push(`bg#${cell.getBgColor().toString(16).padStart(6, '0')}`);
  return codes.join(' ');
}

/**
 * The terminal's screen as text with its styles, as the emulator holds them: `«b fg5»`
 * starts a styled run, `«»` returns to the default look; trailing blank cells are dropped.
 * Snapshots of this show colours and attributes, not only characters.
 */
export function styledDump(terminal: Terminal): string {
  const buffer = terminal.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < terminal.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    if (line === undefined) continue;
    let out = '';
    let current = '';
    let pendingBlank = '';
    for (let x = 0; x < terminal.cols; x++) {
      const cell = line.getCell(x);
      if (cell === undefined || cell.getWidth() === 0) continue;
      const chars = cell.getChars() === '' ? ' ' : cell.getChars();
      const code = styleCode(cell);
      if (chars === ' ' && code === '') {
        pendingBlank += ' ';
        continue;
      }
      if (pendingBlank !== '') {
        if (current !== '') {
          out += '«»';
          current = '';
        }
        out += pendingBlank;
        pendingBlank = '';
      }
      if (code !== current) {
        out += `«${code}»`;
        current = code;
      }
      out += chars;
    }
    if (current !== '') out += '«»';
    rows.push(out);
  }
  return rows.join('\n').replace(/\s+$/, '') + '\n';
}
