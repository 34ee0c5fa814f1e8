import { create } from '@bufbuild/protobuf';
import type { SessionRow } from '@dsh/client-live';
import { SessionSummarySchema } from '@dsh/gen/service';
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import SessionList from '../../src/components/SessionList.vue';
import KeysOverlay from '../../src/components/KeysOverlay.vue';

const row = (id: string, title: string, cwd: string, depth = 0): SessionRow => ({
  summary: create(SessionSummarySchema, { id, title, cwd }),
  depth,
  orphan: false,
});

const rows = [
  row('a1', 'Fix the parser', '/home/dev/parser'),
  row('a2', 'Parser branch', '/home/dev/parser', 1),
  row('b1', 'Write docs', '/home/dev/site'),
];

function list() {
  return mount(SessionList, {
    props: { rows, loaded: true, failing: false, selectedId: 'a1', canCreate: true },
  });
}

describe('SessionList filter', () => {
  it.each([
    { filter: '', shown: ['a1', 'a2', 'b1'] },
    { filter: 'PARSER', shown: ['a1', 'a2'] },
    { filter: 'parser branch', shown: ['a2'] },
    { filter: 'site', shown: ['b1'] },
    { filter: 'b1', shown: ['b1'] },
    { filter: 'nothing', shown: [] },
  ])('"$filter" shows $shown', async ({ filter, shown }) => {
    const wrapper = list();
    await wrapper.get('[data-testid="session-filter"]').setValue(filter);
    const ids = wrapper.findAll('.session-row').map((el) => el.attributes('data-session-id'));
    expect(ids).toEqual(shown);
  });

  it('renders a filtered list flat, and a note when nothing matches', async () => {
    const wrapper = list();
    await wrapper.get('[data-testid="session-filter"]').setValue('parser');
    expect(wrapper.html()).toMatchSnapshot();
    await wrapper.get('[data-testid="session-filter"]').setValue('nothing');
    expect(wrapper.get('[data-testid="list-note"]').text()).toBe('No session matches “nothing”.');
  });
});

describe('SessionList grouped by working directory', () => {
  it('puts each root and its children under its folder, groups by their newest session', async () => {
    const wrapper = mount(SessionList, {
      props: {
        rows: [...rows, row('c1', 'More parser work', '/home/dev/parser')],
        loaded: true,
        failing: false,
        selectedId: undefined,
        canCreate: true,
        grouped: true,
      },
    });
    const items = wrapper
      .findAll('.rows > li')
      .map((li) =>
        li.classes('group-head') ? `# ${li.text()}` : (li.attributes('data-row-id') ?? ''),
      );
    expect(items).toEqual(['# parser', 'a1', 'a2', 'c1', '# site', 'b1']);
    await wrapper.get('[data-testid="session-filter"]').setValue('parser');
    expect(wrapper.findAll('.group-head')).toHaveLength(0);
    await wrapper.get('[data-action="toggle-grouped"]').trigger('click');
    expect(wrapper.emitted('toggle-grouped')).toHaveLength(1);
  });
});

describe('KeysOverlay', () => {
  it('lists the keys', () => {
    expect(mount(KeysOverlay).html()).toMatchSnapshot();
  });
});
