// Lists the functions in src/ longer than a limit (default 80 lines), longest first, so the
// "split where a name explains the part" rule can be checked before and after a change.
// Usage: node scripts/long-functions.mjs [--limit N] [dir ...]   (default dir: src)
// A nested function is counted on its own and also inside the function that holds it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const args = process.argv.slice(2);
let limit = 80;
const dirs = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--limit") limit = Number(args[++i]);
  else dirs.push(args[i]);
}
if (!Number.isFinite(limit)) throw new Error("--limit needs a number");
if (dirs.length === 0) dirs.push("src");

function* sourceFiles(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) yield path;
  }
}

function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) {
    return parent.name.text;
  }
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText();
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText()})`;
  return "(anonymous)";
}

const found = [];
for (const dir of dirs) {
  for (const file of sourceFiles(dir)) {
    const text = readFileSync(file, "utf8");
    const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const lines = end - start + 1;
        if (lines > limit) {
          found.push({ lines, name: nameOf(node), where: `${relative(".", file)}:${start + 1}` });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}

found.sort((a, b) => b.lines - a.lines);
for (const f of found) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.where}`);
console.log(`${found.length} functions over ${limit} lines`);
