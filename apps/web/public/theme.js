// Read at start-up: dark only when the stored value is dark.
try {
  if (localStorage.getItem('coffer-theme') === 'dark')
    document.documentElement.classList.add('dark');
} catch (e) {
  console.warn('Could not read the theme setting', e);
}
