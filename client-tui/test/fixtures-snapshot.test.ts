import { readdirSync } from 'node:fs';
import { scenarios } from '@dsh/fixtures';
import { journalsDir } from '@dsh/fixtures/journals';
import { describe, expect, it } from 'vitest';
import { seg } from '../src/index.js';
import { drawOnVirtualScreen, fixtureItems } from './render-fixture.js';

const journals = readdirSync(journalsDir)
  .filter((file) => file.endsWith('.jsonl'))
  .map((file) => file.replace(/\.jsonl$/, ''))
  .sort();

describe('createConversationRenderer() on every fixture journal at 80 columns', () => {
  it('covers every journal in fixtures/journals', () => {
    expect(scenarios.map((s) => s.name).sort()).toEqual(journals);
  });

  it.each(journals.filter((name) => name !== 'long-paging'))('%s', async (name) => {
    // The pane draws a two-cell selection gutter before each item's lines.
    const lines = fixtureItems(name, 78).flatMap((item) =>
      item.lines.map((line) => [seg('  '), ...line]),
    );
    const { rows } = await drawOnVirtualScreen(lines, 80);
    await expect(rows.join('\n').replace(/\s+$/, '') + '\n').toMatchFileSnapshot(
      `__snapshots__/${name}.txt`,
    );
  });

  it('long-paging: the last 60 rows', async () => {
    const lines = fixtureItems('long-paging', 78).flatMap((item) =>
      item.lines.map((line) => [seg('  '), ...line]),
    );
    const { rows } = await drawOnVirtualScreen(lines.slice(-60), 80);
    await expect(rows.join('\n').replace(/\s+$/, '') + '\n').toMatchFileSnapshot(
      '__snapshots__/long-paging.txt',
    );
  });
});

describe('createConversationRenderer() on every fixture journal, with styles', () => {
  const cases = journals.flatMap((name) => [80, 120].map((cols) => [name, cols] as const));
  it.each(cases)('%s at %i columns', async (name, cols) => {
    const lines = fixtureItems(name, cols - 2).flatMap((item) =>
      item.lines.map((line) => [seg('  '), ...line]),
    );
    const shown = name === 'long-paging' ? lines.slice(-60) : lines;
    const { styled } = await drawOnVirtualScreen(shown, cols);
    await expect(styled).toMatchFileSnapshot(`__snapshots__/styled/${name}.${cols}.txt`);
  });
});

describe('details view of a compaction divider at 80 columns', () => {
  it('compaction details', async () => {
    const items = fixtureItems('compaction', 78).filter((item) =>
      item.lines.some((line) => line.some((s) => s.text.includes('Context compacted'))),
    );
    expect(items).toHaveLength(2);
    const lines = items.flatMap((item) => [
      [seg(`── ${item.key}`)],
      ...item.details(78).map((line) => [seg('  '), ...line]),
    ]);
    const { rows } = await drawOnVirtualScreen(lines, 80);
    await expect(rows.join('\n').replace(/\s+$/, '') + '\n').toMatchFileSnapshot(
      '__snapshots__/compaction.details.txt',
    );
  });
});

describe('details view of every card in the showcase at 80 columns', () => {
  it('showcase details', async () => {
    const items = fixtureItems('showcase', 78).filter((item) => item.block !== undefined);
    const lines = items.flatMap((item) => [
      [seg(`── ${item.key}`)],
      ...item.details(78).map((line) => [seg('  '), ...line]),
    ]);
    const { rows } = await drawOnVirtualScreen(lines, 80);
    await expect(rows.join('\n').replace(/\s+$/, '') + '\n').toMatchFileSnapshot(
      '__snapshots__/showcase.details.txt',
    );
  });
});
