import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { viteAliases } from '../../import-graph.ts';

export default defineConfig(({ mode, isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
  resolve: {
    // react-router's package exports only its development build to bundlers; the
    // production build drops the dev-only warnings and checks (about a third of its size).
    alias: [
      ...viteAliases,
      ...(mode === 'production'
        ? [
            {
              find: /^react-router$/,
              replacement: path.resolve(
                import.meta.dirname,
                '../../node_modules/react-router/dist/production/index.mjs',
              ),
            },
          ]
        : []),
    ],
  },
  build: {
    outDir: 'dist',
    // The manifest lets the bundle-size tests add up exactly what each page loads.
    manifest: true,
    sourcemap: false,
    // Each lazy page shares many small modules (icons, UI parts) with other pages; split
    // automatically, they became some 50 files of about 1 KB each for the dashboard, and on a
    // phone's connection every file costs a round trip. Common chunks under 16 KB (source
    // size) are copied into the chunks that use them instead: the dashboard loads 13 files.
    // Decision 0035. Not for the prerender's Node build, whose entry must keep its exports.
    rolldownOptions: isSsrBuild
      ? {}
      : {
          preserveEntrySignatures: false,
          output: { codeSplitting: { experimentalInlineCommonChunks: { maxSize: 16_000 } } },
        },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' },
  },
}));
