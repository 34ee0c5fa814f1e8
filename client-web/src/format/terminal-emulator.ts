import { loadTerminalEmulator, terminalEmulatorLoaded } from '@dsh/card-models';
import { ref, type Ref } from 'vue';

/**
 * True once card-models' terminal emulator (xterm.js, a lazy chunk of its own) has
 * loaded: terminal cards replay plain text until then and recompute when it turns true.
 */
const loaded = ref(terminalEmulatorLoaded());
let started = false;

/**
 * Starts loading the emulator (once; a failed fetch is retried on the next call) and
 * returns the flag a view reads to recompute when it arrives.
 */
export function useTerminalEmulator(): Readonly<Ref<boolean>> {
  if (!loaded.value && !started) {
    started = true;
    loadTerminalEmulator().then(
      () => (loaded.value = true),
      () => (started = false),
    );
  }
  return loaded;
}

/** Resolves once the emulator is loaded (a rejected fetch rejects). */
export async function terminalEmulatorReady(): Promise<void> {
  await loadTerminalEmulator();
  loaded.value = true;
}
