import type { Node } from "web-tree-sitter";
import { absolutePathOf } from "./python-paths";
import { normalizeSource } from "./source";
import { StatementMemo } from "./statements";
import { withStatements, type ParsedScript } from "./script-parse";

export interface PytestMetrics {
  tests: number;
  asserts: number;
  /** pytest-style ids within the file: `test_a`, `TestThing::test_b` */
  testNames: string[];
  /** string literals that look like absolute file paths, e.g. "/app/out.txt" */
  paths: string[];
}

/** An open function or class definition while the flat node list is read in document order. */
interface Scope {
  id: number;
  end: number;
  /** a test function, a collected Test* class, or anything else (helpers, nested defs) */
  kind: "test" | "class" | "other";
  /** pytest id of a test or a collected class: `TestThing::test_b` */
  name: string;
  asserts: number;
}

// Every node kind the reading needs, fetched in one traversal (each descendantsOfType call walks
// the whole tree in WASM; walking namedChildren from JS costs more than the parse itself).
const READ_TYPES = ["function_definition", "class_definition", "assert_statement", "string", "concatenated_string"];
const DEFINITION_TYPES = ["function_definition", "class_definition"];

/** Whether pytest would look at this definition: a statement of the module, or of the body of a
 * collected Test* class (`innermost`); not one nested in an `if`, a function or an error node. */
function collectable(definition: Node, innermost: Scope | undefined): boolean {
  let parent = definition.parent;
  if (parent?.type === "decorated_definition") parent = parent.parent;
  if (!parent) return false;
  if (innermost === undefined) return parent.type === "module";
  return innermost.kind === "class" && parent.type === "block" && parent.parent?.id === innermost.id;
}

/** What one top-level statement (or a whole tree with errors) holds: its tests in order and the
 * paths its strings name. */
interface NodeReading {
  tests: { name: string; asserts: number }[];
  paths: string[];
}

/**
 * What pytest collects by default: `test*` functions at module level and `test*` methods of
 * `Test*` classes (nested `Test*` classes too); functions defined inside functions are not tests.
 * Asserts count for a test when no other function or class definition lies between them.
 */
function readNode(top: Node, types: string[]): NodeReading {
  const tests: Scope[] = [];
  const scopes: Scope[] = [];
  const paths = new Set<string>();
  for (const node of top.descendantsOfType(types)) {
    while (scopes.length > 0 && (scopes[scopes.length - 1]?.end ?? 0) <= node.startIndex) scopes.pop();
    const innermost = scopes[scopes.length - 1];
    const type = node.type;
    if (type === "function_definition" || type === "class_definition") {
      const name = node.childForFieldName("name")?.text ?? "";
      const scope: Scope = { id: node.id, end: node.endIndex, kind: "other", name, asserts: 0 };
      const prefix = type === "function_definition" ? "test" : "Test";
      if (name.startsWith(prefix) && collectable(node, innermost)) {
        scope.kind = type === "function_definition" ? "test" : "class";
        scope.name = innermost ? `${innermost.name}::${name}` : name;
        if (scope.kind === "test") tests.push(scope);
      }
      scopes.push(scope);
    } else if (type === "assert_statement") {
      if (innermost?.kind === "test") innermost.asserts += 1;
    } else {
      // Most strings hold no slash and cannot name a path: skip reading their parts.
      if (!node.text.includes("/")) continue;
      if (type === "string" && node.parent?.type === "concatenated_string") continue;
      const path = absolutePathOf(node);
      if (path !== null) paths.add(path);
    }
  }
  return { tests: tests.map((test) => ({ name: test.name, asserts: test.asserts })), paths: [...paths] };
}

/** Statements read before, in this thread: a child's tests repeat its parent's (./statements). */
const statementReadings = new StatementMemo<NodeReading>(4_000_000);

/** Forget the remembered statements (tests and benchmarks measure the uncached path with it). */
export function clearPytestStatementMemo(): void {
  statementReadings.clear();
}

/** A tree without errors is read statement by statement, each remembered by its text; a tree with
 * errors is read whole, with `types` only (error recovery depends on context). */
function readPythonTree(script: ParsedScript, types: string[] = READ_TYPES): PytestMetrics {
  const root = script.hasError ? script.root : null;
  const parts = root
    ? [readNode(root, types)]
    : statementReadings.readAll(script.statements.filter((s) => s.isNamed), (node) => readNode(node, READ_TYPES)).map((part) => part.reading);
  const tests: { name: string; asserts: number }[] = [];
  const paths = new Set<string>();
  for (const part of parts) {
    for (const test of part.tests) tests.push(test);
    for (const path of part.paths) paths.add(path);
  }
  return {
    tests: tests.length,
    asserts: tests.reduce((sum, test) => sum + test.asserts, 0),
    testNames: tests.map((test) => test.name),
    paths: [...paths],
  };
}

/** Measures one pytest file; a syntax error still yields what the error-tolerant tree holds. */
export function measurePytest(source: string): Promise<PytestMetrics> {
  return withStatements("python", normalizeSource(source), (script) => readPythonTree(script));
}

/**
 * `measurePytest(source).testNames`, walking the definitions only (asserts and strings never open
 * or close a scope, so the names are the same): what the step summary reads of a test file.
 */
export function pytestTestNames(source: string): Promise<string[]> {
  return withStatements("python", normalizeSource(source), (script) => readPythonTree(script, DEFINITION_TYPES).testNames);
}
