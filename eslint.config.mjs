// ESLint for the app's one JavaScript file, olapp/play_driver.js (an ES module run in the browser by
// st.components.v2): ESLint's recommended rules. tests/test_lint.py runs it (npm ci installs it).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", ".venv/"] },
  js.configs.recommended,
  {
    files: ["**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.browser } },
  },
];
