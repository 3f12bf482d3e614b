import { create } from 'zustand';
import type { AppInfo } from '../../shared/appViews.js';
import { commandValue } from './command.js';

interface AppState {
  info: AppInfo | null;
  /** Follows the OS colour scheme. */
  dark: boolean;
  setDark(dark: boolean): void;
  load(): Promise<void>;
}

export const useApp = create<AppState>()((set) => ({
  info: null,
  dark: false,
  setDark: (dark) => set({ dark }),
  load: async () => {
    const info = await commandValue('app.info', {});
    if (info) set({ info });
  },
}));

export const selectIsWebHost = (s: AppState): boolean => s.info?.host === 'web';
