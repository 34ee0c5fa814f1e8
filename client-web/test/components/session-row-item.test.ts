import { create } from '@bufbuild/protobuf';
import type { SessionRow } from '@dsh/client-live';
import { SessionSummarySchema } from '@dsh/gen/service';
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import SessionRowItem from '../../src/components/SessionRowItem.vue';

const row = (fields: Record<string, unknown>): SessionRow => ({
  summary: create(SessionSummarySchema, {
    id: 's1',
    title: 'Fix the parser',
    cwd: '/p',
    ...fields,
  }),
  depth: 0,
  orphan: false,
});

function item(fields: Record<string, unknown> = {}, can = { update: true, delete: true }) {
  return mount(SessionRowItem, {
    attachTo: document.body,
    props: {
      row: row(fields),
      selected: false,
      filtering: false,
      waiting: undefined,
      now: 0,
      canUpdate: can.update,
      canDelete: can.delete,
    },
  });
}

async function menuItems(wrapper: ReturnType<typeof item>): Promise<string[]> {
  const button = wrapper.find('[data-action="session-menu"]');
  if (!button.exists()) return [];
  await button.trigger('click');
  return wrapper
    .findAll('[role="menuitem"]')
    .map((el) => `${el.text()}${el.attributes('disabled') === undefined ? '' : ' (off)'}`);
}

describe('SessionRowItem actions', () => {
  it.each<[string, Record<string, unknown>, { update: boolean; delete: boolean }, string[]]>([
    ['a writable session', {}, { update: true, delete: true }, ['Rename', 'Archive', 'Delete…']],
    [
      'an archived one',
      { archived: true },
      { update: true, delete: true },
      ['Rename', 'Unarchive', 'Delete…'],
    ],
    [
      'a running one',
      { running: true },
      { update: true, delete: true },
      ['Rename', 'Archive', 'Delete… (off)'],
    ],
    ['an import', { readOnly: true, origin: 'codex' }, { update: true, delete: true }, ['Delete…']],
    ['a fixture', { readOnly: true }, { update: true, delete: true }, []],
    ['a host without update or delete', {}, { update: false, delete: false }, []],
  ])('%s offers %j', async (_, fields, can, expected) => {
    const wrapper = item(fields, can);
    expect(await menuItems(wrapper)).toEqual(expected);
    wrapper.unmount();
  });

  it('renames in place: Enter saves, Esc keeps the title', async () => {
    const wrapper = item();
    await menuItems(wrapper);
    await wrapper.get('[data-action="rename"]').trigger('click');
    const field = wrapper.get('[data-testid="rename-input"]');
    expect((field.element as HTMLInputElement).value).toBe('Fix the parser');
    await field.setValue('  Parser, part two ');
    await field.trigger('keydown', { key: 'Enter' });
    expect(wrapper.emitted('rename')).toEqual([['  Parser, part two ']]);
    expect(wrapper.find('[data-testid="rename-input"]').exists()).toBe(false);

    await menuItems(wrapper);
    await wrapper.get('[data-action="rename"]').trigger('click');
    await wrapper.get('[data-testid="rename-input"]').setValue('Never mind');
    await wrapper.get('[data-testid="rename-input"]').trigger('keydown', { key: 'Escape' });
    expect(wrapper.emitted('rename')).toHaveLength(1);
    wrapper.unmount();
  });

  it('asks to archive and to delete', async () => {
    const wrapper = item();
    await menuItems(wrapper);
    await wrapper.get('[data-action="archive"]').trigger('click');
    expect(wrapper.emitted('archive')).toEqual([[true]]);
    expect(wrapper.find('[role="menu"]').exists()).toBe(false);
    await menuItems(wrapper);
    await wrapper.get('[data-action="delete"]').trigger('click');
    expect(wrapper.emitted('delete')).toHaveLength(1);
    wrapper.unmount();
  });

  it('renders an archived row with its menu open', async () => {
    const wrapper = item({ archived: true });
    await menuItems(wrapper);
    await expect(`${wrapper.html()}\n`).toMatchFileSnapshot('__snapshots__/session-row-menu.html');
    wrapper.unmount();
  });
});
