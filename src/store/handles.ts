// People's handles (the name an @mention uses): 2-30 characters of a-z, 0-9, "_" and "-", starting
// with a letter or digit, unique over the installation and stored lowercase. A handle a person did
// not choose is made from their display name, with a number added until it is free.

export const HANDLE_PATTERN = /^[a-z0-9][a-z0-9_-]{1,29}$/;
export const HANDLE_LIMITS = { min: 2, max: 30 } as const;

/** "Dana (demo)" → "dana-demo"; "李" → "user": a valid handle, not yet checked for being free. */
export function handleBase(displayName: string): string {
  const ascii = displayName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, HANDLE_LIMITS.max - 4)
    .replace(/[-_]+$/, '');
  return ascii.length >= HANDLE_LIMITS.min ? ascii : `user${ascii ? `-${ascii}` : ''}`;
}

/** The first of base, base2, base3, … that `isTaken` refuses. */
export async function freeHandle(
  base: string,
  isTaken: (handle: string) => Promise<boolean>,
): Promise<string> {
  if (!(await isTaken(base))) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}${n}`;
    if (!(await isTaken(candidate))) return candidate;
  }
}
