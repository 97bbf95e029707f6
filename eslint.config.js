// The lint of the lab's browser scripts (ui/**/*.js): ESLint's recommended rules, for
// ES modules that Streamlit's components v2 run in the page (window, document, and the
// page's Plotly as window.Plotly).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/**", "**/.venv/**"] },
  js.configs.recommended,
  {
    files: ["**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      eqeqeq: "error",
      "no-var": "error",
      "prefer-const": "error",
      "no-implicit-globals": "error",
      "no-shadow": "error",
      "no-use-before-define": ["error", { functions: false, classes: true, variables: true }],
    },
  },
];
