/**
 * The store URL with its password replaced by `***` (in the userinfo and in a `password=` query
 * parameter), so that error messages and logs can name the store without leaking the secret.
 */
export function maskUrlPassword(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL we can take apart: hide everything between "://" and "@" rather than guess.
    return url.replace(/\/\/[^/@]*@/, '//***@');
  }
  if (parsed.password !== '') parsed.password = '***';
  if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
  return parsed.toString().replaceAll('%2A%2A%2A', '***');
}
