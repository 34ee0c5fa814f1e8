import type { DescMessage } from '@bufbuild/protobuf';
import { file_dsh_session_v1_content } from '@dsh/gen/content';
import { file_dsh_session_v1_events } from '@dsh/gen/events';
import { file_dsh_session_v1_service, SessionService } from '@dsh/gen/service';
import { describe, expect, it } from 'vitest';

const files = [
  file_dsh_session_v1_content,
  file_dsh_session_v1_events,
  file_dsh_session_v1_service,
];
const presentation = /(^|_)(view|card|renderer|render|presentation)s?(_|$)/i;

function allMessages(): DescMessage[] {
  const out: DescMessage[] = [];
  const visit = (m: DescMessage): void => {
    out.push(m);
    m.nestedMessages.forEach(visit);
  };
  files.forEach((f) => f.messages.forEach(visit));
  return out;
}

describe('the wire', () => {
  it('has no field named like view, card or renderer in any message', () => {
    const offenders = allMessages().flatMap((m) =>
      m.fields.filter((f) => presentation.test(f.name)).map((f) => `${m.typeName}.${f.name}`),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps SessionEventEntry to the raw event, with the view field reserved', () => {
    const entry = allMessages().find((m) => m.typeName === 'dsh.session.v1.SessionEventEntry');
    expect(entry?.fields.map((f) => f.name)).toEqual(['event']);
    const proto = entry?.proto;
    expect(proto?.reservedName).toContain('view');
    expect(proto?.reservedRange.map((r) => [r.start, r.end])).toContainEqual([2, 3]);
  });

  it('names every RPC of the contract', () => {
    expect(SessionService.methods.map((m) => m.name).sort()).toEqual(
      [
        'Cancel',
        'Compact',
        'CreateSession',
        'EditQueue',
        'DescribeHost',
        'Follow',
        'ListSessions',
        'Page',
        'Prompt',
        'Respond',
        'Search',
        'WatchSessions',
        'UpdateSession',
        'DeleteSession',
      ].sort(),
    );
  });
});
