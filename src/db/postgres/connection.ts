/**
 * A connection string with PostgreSQL startup options (`-c name=value …`) added to any the URL
 * already gives: pg lets a URL's own `options` replace the config's, so they are merged here.
 */
export function withStartupOptions(url: string, options: string): { connectionString: string; options?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { connectionString: url, options };
  }
  const own = parsed.searchParams.get('options');
  if (own === null) return { connectionString: url, options };
  parsed.searchParams.set('options', `${own} ${options}`);
  return { connectionString: parsed.toString() };
}
