// A store's place as messages and logs show it: a PostgreSQL URL's password hidden.

export function shownStore(location: string): string {
  return location.replace(/^(postgres(?:ql)?:\/\/[^:/@]*:)[^/?#]*@/i, '$1***@');
}
