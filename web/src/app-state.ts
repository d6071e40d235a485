import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Account } from './api/account.js';
import type { Api } from './api/index.js';

/**
 * What every page of the signed-in app reads: the API client and the account. Apart from the
 * shell (app.tsx), which imports the pages, so no page imports the shell.
 */
export interface AppState {
  api: Api;
  account: Account;
  setAccount(account: Account): void;
}

export const AppContext = createContext<AppState | null>(null);

export function useApp(): AppState {
  const state = useContext(AppContext);
  if (!state) throw new Error('useApp outside the signed-in app');
  return state;
}
