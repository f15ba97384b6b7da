package course.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import jdk.jshell.JShell;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.SourceCodeAnalysis.Documentation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.rapaio.jupyter.kernel.core.CompleteMatches;
import org.rapaio.jupyter.kernel.message.messages.ShellIsCompleteReply;

/** Against a real JShell with the kernel's start-up import of {@code java.util.concurrent.*}. */
class CodeHelpTest {

    private static JShell shell;
    private static SourceCodeAnalysis sca;

    @BeforeAll
    static void shell() {
        shell = JShell.builder().executionEngine("local").build();
        shell.eval("import java.util.concurrent.*;");
        sca = shell.sourceCodeAnalysis();
    }

    @AfterAll
    static void close() {
        shell.close();
    }

    /** The signatures found with the cursor where {@code |} is (at the end without one). */
    private static List<String> signatures(String marked) {
        int cursor = marked.contains("|") ? marked.indexOf('|') : marked.length();
        String code = marked.replace("|", "");
        return CodeHelp.lookup(sca, code, cursor).stream()
                .map(Documentation::signature)
                .toList();
    }

    /** Code with the cursor at {@code |} (or at the end), and a piece of the signature Shift+Tab must find there. */
    private static final String[][] FOUND = {
        {"Semaphore", "Semaphore"},
        {"Sema|phore", "Semaphore"},
        {"|Semaphore", "Semaphore"},
        {"Executors.newFixedThreadPool", "newFixedThreadPool(int"},
        {"Executors.newFixed|ThreadPool", "newFixedThreadPool(int"},
        {"Thread.ofVirtual()", "ofVirtual()"},
        {"Thread.ofVirtual|()", "ofVirtual()"},
        {"Thread.ofVirtual(|)", "ofVirtual()"},
        {"Executors.newVirtualThreadPerTaskExecutor()", "newVirtualThreadPerTaskExecutor()"},
        {"new Semaphore|(3)", "Semaphore(int permits)"},
        {"var s = new Semaphore(3);\nThread.ofVirtual().start(() -> {})", "start("},
        {"import java.util.*;\nSemaphore", "Semaphore"},
        {"import java.util.*;\nThread.ofVirtual()", "ofVirtual()"},
    };

    @Test
    @DisplayName("Shift+Tab finds the class, method or constructor in or just after a name or a call")
    void finds() {
        for (String[] c : FOUND) {
            List<String> found = signatures(c[0].replace("\\n", "\n"));
            assertTrue(found.stream().anyMatch(s -> s.contains(c[1])), c[0] + " found " + found);
        }
    }

    @Test
    @DisplayName("JShell's own positions find nothing where the learner's cursor is (what rapaio 3.0.1 asked)")
    void jshellAloneMisses() {
        assertEquals(List.of(), sca.documentation("Executors.newFixedThreadPool", 28, false));
        assertEquals(List.of(), sca.documentation("Thread.ofVirtual()", 18, false));
        assertEquals(List.of(), sca.documentation("import java.util.*;\nSemaphore", 29, false));
    }

    @Test
    @DisplayName("nothing to document: not found, and no error")
    void nothing() {
        assertEquals(List.of(), signatures("int x = 1 + 2;|"));
        assertEquals(List.of(), signatures("   |"));
        assertEquals(List.of(), signatures("noSuchName"));
    }

    @Test
    @DisplayName("the Javadoc comes with the signature when the JDK has its sources")
    void javadoc() {
        List<Documentation> docs = CodeHelp.lookup(sca, "Semaphore", 9);
        String text = CodeHelp.render(docs, true).data().get("text/plain").toString();
        assertTrue(text.contains("Semaphore"), text);
        if (CodeHelp.jdkSourcesPresent()) {
            assertTrue(text.contains("A counting semaphore."), text);
        }
        String without = CodeHelp.render(List.of(new Doc("void f()", null)), false)
                .data()
                .get("text/plain")
                .toString();
        assertTrue(without.contains("void f()") && without.contains("lib/src.zip"), without);
    }

    record Doc(String signature, String javadoc) implements Documentation {}

    @Test
    @DisplayName("Tab after Executors. and Thread.ofVirtual().: the methods, replacing only the name typed")
    void completion() {
        CompleteMatches all = CodeHelp.complete(sca, "Executors.", 10);
        assertNotNull(all);
        assertTrue(all.replacements().contains("newFixedThreadPool("), all.toString());
        assertTrue(all.replacements().contains("newVirtualThreadPerTaskExecutor()"), all.toString());
        assertEquals(10, all.start());
        assertEquals(10, all.end());

        CompleteMatches some = CodeHelp.complete(sca, "var pool = Executors.newV", 25);
        assertEquals(List.of("newVirtualThreadPerTaskExecutor()"), some.replacements());
        assertEquals(21, some.start());
        assertEquals(25, some.end());

        CompleteMatches builder = CodeHelp.complete(sca, "Thread.ofVirtual().", 19);
        assertTrue(
                builder.replacements().containsAll(List.of("name(", "start(", "unstarted(", "factory()")),
                builder.toString());
        assertEquals(19, builder.start());

        String cell = "import java.util.*;\nThread.ofVirtual().na";
        CompleteMatches afterImport = CodeHelp.complete(sca, cell, cell.length());
        assertEquals(List.of("name("), afterImport.replacements());
        assertEquals(cell.length() - 2, afterImport.start());

        String local = "var pool = Executors.newFixedThreadPool(2);\npool.shut";
        CompleteMatches usesEarlierLine = CodeHelp.complete(sca, local, local.length());
        assertNotNull(usesEarlierLine);
        assertTrue(usesEarlierLine.replacements().contains("shutdown()"), usesEarlierLine.toString());

        assertNull(CodeHelp.complete(sca, "int zzz", 7));
    }

    /** Cells and what is_complete answers for them. */
    private static final String[][] COMPLETENESS = {
        {"int x = 1;", "complete"},
        {"6 * 7", "complete"},
        {"%help", "complete"},
        {"", "complete"},
        {"for (int i = 0; i < 3; i++) {", "incomplete"},
        {"class A {\n  void f() {", "incomplete"},
        {"var s = \"\"\"\n  text", "incomplete"},
        {"int x = ;", "invalid"},
        {"int x = 1; }", "invalid"},
        {"\"abc", "invalid"},
    };

    @Test
    @DisplayName("is_complete: complete, incomplete while something is open, invalid where JShell cannot read it")
    void isComplete() {
        for (String[] c : COMPLETENESS) {
            ShellIsCompleteReply reply = CodeHelp.isComplete(sca, c[0]);
            assertEquals(c[1], reply.status().name().toLowerCase(java.util.Locale.ROOT), c[0]);
        }
    }

    @Test
    void indentation() {
        assertEquals("    ", CodeHelp.nextIndent("for (;;) {"));
        assertEquals("      ", CodeHelp.nextIndent("class A {\n  void f() {"));
        assertEquals("  ", CodeHelp.nextIndent("class A {\n  int x"));
    }

    @Test
    @DisplayName("the protocol's positions are code points, Java's are UTF-16 units")
    void positions() {
        String code = "var s = \"🧵\"; Executors.new";
        int utf16 = code.length();
        int points = code.codePointCount(0, utf16);
        assertEquals(utf16 - 1, points);
        assertEquals(utf16, CodeHelp.utf16(code, points));
        assertEquals(points, CodeHelp.codePoints(code, utf16));
        assertEquals(utf16, CodeHelp.utf16(code, points + 5));
        CompleteMatches m = CodeHelp.complete(sca, code, CodeHelp.utf16(code, points));
        assertEquals(points - 3, CodeHelp.codePoints(code, m.start()));
    }
}
