import { stat } from 'node:fs/promises';

/** The size of each file in bytes (0 for one that cannot be read), and their sum. */
export async function fileSizes(
  paths: readonly string[],
): Promise<{ sizes: number[]; total: number }> {
  const sizes = await Promise.all(
    paths.map((path) =>
      stat(path).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return { sizes, total: sizes.reduce((a, b) => a + b, 0) };
}
