/**
 * Where a keyboard user continues when the control they used goes away (a pending card
 * that closed, a button that was removed): the first enabled button of the next pending
 * card, else the message input when it takes text, else the conversation itself.
 */
export function focusNext(): void {
  const target =
    document.querySelector<HTMLElement>('.pending button:not(:disabled)') ??
    document.querySelector<HTMLElement>('[data-testid="input"]:not(:disabled)') ??
    document.querySelector<HTMLElement>('[data-testid="conversation"]');
  target?.focus({ preventScroll: true });
}
