export type Theme = 'light' | 'dark';
const KEY = 'coffer-theme';

export function readTheme(): Theme {
  try {
    return localStorage.getItem(KEY) === 'dark' ? 'dark' : 'light';
  } catch (err) {
    console.warn('Could not read the theme setting', err);
    return 'light';
  }
}

export function applyTheme(theme: Theme): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  try {
    localStorage.setItem(KEY, theme);
  } catch (err) {
    console.warn('Could not save the theme setting', err);
  }
}
