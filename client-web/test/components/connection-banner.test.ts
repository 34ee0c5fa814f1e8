import type { ConnectionState } from '@dsh/client-live';
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import ConnectionBanner from '../../src/components/ConnectionBanner.vue';

describe('ConnectionBanner', () => {
  it.each<[string, ConnectionState, 'list' | 'session', string | undefined, string | undefined]>([
    ['live: nothing to say', { kind: 'live' }, 'session', undefined, undefined],
    [
      'closed on purpose: nothing to say',
      { kind: 'offline', error: 'closed' },
      'session',
      undefined,
      undefined,
    ],
    [
      'reconnecting says so and offers a retry now',
      { kind: 'reconnecting', attempt: 2, error: 'fetch failed', retryInMs: 900 },
      'session',
      'Disconnected from the host — reconnecting (attempt 2). fetch failed',
      'Retry now',
    ],
    [
      'the open session cannot be followed',
      { kind: 'offline', error: '[unauthenticated] this host needs a token' },
      'session',
      'Cannot follow this session: [unauthenticated] this host needs a token',
      'Try again',
    ],
    [
      'the session list cannot be loaded: said as such',
      { kind: 'offline', error: '[unauthenticated] this host needs a token' },
      'list',
      'Cannot load the session list: [unauthenticated] this host needs a token',
      'Try again',
    ],
  ])('%s', (_, connection, subject, message, button) => {
    const wrapper = mount(ConnectionBanner, {
      props: { connection, subject, windowError: undefined },
    });
    const banner = wrapper.find('[data-testid="banner"]');
    expect(banner.exists()).toBe(message !== undefined);
    if (message === undefined) return;
    expect(banner.find('span').text()).toBe(message);
    expect(banner.get('[data-action="retry"]').text()).toBe(button);
    expect(banner.html()).toMatchSnapshot();
  });
});
