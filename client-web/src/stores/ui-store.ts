import { defineStore } from 'pinia';
import { ref, watch } from 'vue';

/** Light or dark; `system` follows prefers-color-scheme. */
export type ThemeChoice = 'system' | 'light' | 'dark';

const themeKey = 'dsh-theme';

/** View preferences: theme (stored), the main view, the side panel. */
export const useUiStore = defineStore('ui', () => {
  const stored = globalThis.localStorage?.getItem(themeKey);
  const theme = ref<ThemeChoice>(stored === 'light' || stored === 'dark' ? stored : 'system');
  const view = ref<'conversation' | 'trajectory' | 'changes'>('conversation');
  const narrow = globalThis.matchMedia?.('(max-width: 720px)');
  const sidebarOpen = ref(!(narrow?.matches ?? false));
  const dark = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
  const systemDark = ref(dark?.matches ?? false);
  dark?.addEventListener('change', (event) => {
    systemDark.value = event.matches;
  });

  const applyTheme = (): void => {
    const resolved = theme.value === 'system' ? (systemDark.value ? 'dark' : 'light') : theme.value;
    document.documentElement.dataset['theme'] = resolved;
  };
  watch([theme, systemDark], applyTheme, { immediate: true });
  watch(theme, (value) => globalThis.localStorage?.setItem(themeKey, value));

  function toggleTheme(): void {
    const current = document.documentElement.dataset['theme'];
    theme.value = current === 'dark' ? 'light' : 'dark';
  }

  return { theme, view, sidebarOpen, toggleTheme };
});
