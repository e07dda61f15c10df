import type { Node, Tree } from "web-tree-sitter";
import { absolutePaths } from "./python-paths";
import { normalizeSource } from "./source";
import { withTree } from "./tree-sitter";

export interface PytestMetrics {
  tests: number;
  asserts: number;
  /** pytest-style ids within the file: `test_a`, `TestThing::test_b` */
  testNames: string[];
  /** string literals that look like absolute file paths, e.g. "/app/out.txt" */
  paths: string[];
}

interface TestFunction {
  name: string;
  definition: Node;
}

/** `@decorator def f` and `async def f` are both function_definition nodes underneath. */
function definitionOf(statement: Node): Node {
  return statement.type === "decorated_definition" ? (statement.childForFieldName("definition") ?? statement) : statement;
}

const nameOf = (definition: Node): string => definition.childForFieldName("name")?.text ?? "";

/** What pytest collects by default: `test*` functions at module level and `test*` methods of
 * `Test*` classes (nested `Test*` classes too); functions defined inside functions are not tests. */
function collectTests(block: Node, classPath: string[], into: TestFunction[]): void {
  for (const statement of block.namedChildren) {
    const definition = definitionOf(statement);
    const name = nameOf(definition);
    if (definition.type === "function_definition" && name.startsWith("test")) {
      into.push({ name: [...classPath, name].join("::"), definition });
    } else if (definition.type === "class_definition" && name.startsWith("Test")) {
      const body = definition.childForFieldName("body");
      if (body) collectTests(body, [...classPath, name], into);
    }
  }
}

/** assert statements of a test body, not of functions or classes defined inside it. */
function countAsserts(definition: Node): number {
  const body = definition.childForFieldName("body");
  const stack = body ? [body] : [];
  let count = 0;
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === "assert_statement") count += 1;
    for (const child of node.namedChildren) {
      if (child.type !== "function_definition" && child.type !== "class_definition") stack.push(child);
    }
  }
  return count;
}

function readPythonTree(tree: Tree): PytestMetrics {
  const tests: TestFunction[] = [];
  collectTests(tree.rootNode, [], tests);
  return {
    tests: tests.length,
    asserts: tests.reduce((sum, test) => sum + countAsserts(test.definition), 0),
    testNames: tests.map((test) => test.name),
    paths: absolutePaths(tree.rootNode),
  };
}

/** Measures one pytest file; a syntax error still yields what the error-tolerant tree holds. */
export function measurePytest(source: string): Promise<PytestMetrics> {
  return withTree("python", normalizeSource(source), readPythonTree);
}
