/** sharp's default export: the function that opens an image. */
export type SharpFactory = typeof import('sharp').default;

/**
 * sharp, loaded at the first image rather than at start: libvips costs a server that never
 * handles one about 13 MiB of idle RSS (docs/benchmarks.md, "Idle RSS on PostgreSQL"). Node keeps
 * the module once loaded, so each caller may ask for it every time.
 */
export async function loadSharp(): Promise<SharpFactory> {
  return (await import('sharp')).default;
}
