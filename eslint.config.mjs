// Lints the lecture kit's scripts (bash run.sh test: eslint --max-warnings 0 publish): the
// recommended rules, in the browser. Each file is a classic script inlined into its page, so
// "script" and not a module; what one script gives the next on the same page is declared in
// publish/kit/static/kit.d.ts for tsc, and named with /* global */ where it is used.
import { createRequire } from "node:module";

// scripts/setup.sh installs the linter and its rules inside .venv/, not beside this file
const require = createRequire(new URL("./.venv/node_modules/", import.meta.url));
const js = require("@eslint/js");
const globals = require("globals");

export default [
  js.configs.recommended,
  {
    files: ["publish/**/static/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser },
    },
    rules: {
      "no-empty": ["error", { allowEmptyCatch: true }],  // a catch that lets a page go on says why
      "no-redeclare": ["error", { builtinGlobals: false }],  // tracking.js runs in a function
    },
  },
];
