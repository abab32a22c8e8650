import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'data/**', 'test/fixtures/**/*.ts', '.ci/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The VS Code extension (editors/vscode/) is CommonJS, as VS Code loads it.
    files: ['editors/vscode/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Command-line and environment handling lives in src/cli/ (docs/architecture.md, Layers); the library takes
    // plain options. spec-schema-build.ts is the build step's script (npm run build).
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/spec/spec-schema-build.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read the environment in src/cli/ and pass plain options.' },
        { object: 'process', property: 'argv', message: 'Parse the command line in src/cli/.' },
      ],
    },
  },
  {
    // better-sqlite3 12 aborts the process at exit on Node 24: every database is opened with the runtime's driver
    // for the running Node (loadSqliteDriver), never the package directly.
    files: ['**/*.ts'],
    ignores: ['src/runtime/storage/storage-sqlite-driver.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'better-sqlite3', allowTypeImports: true, message: 'Open SQLite with loadSqliteDriver().' }] },
      ],
    },
  },
  {
    // CommonJS files (a bench preload, a baseline server, a test fixture server) are Node scripts that require.
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        module: 'writable',
        require: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        URLSearchParams: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
);
