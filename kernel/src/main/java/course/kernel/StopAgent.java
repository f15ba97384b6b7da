package course.kernel;

import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

/**
 * The kernel's {@code -javaagent} (this module's jar names it as {@code Premain-Class}): it weaves stop checks
 * ({@link StopCheckWeaver}) into every class that JShell defines for a notebook snippet, so that an interrupt
 * also stops CPU loops. Classes outside the {@code REPL} package are never touched.
 */
public final class StopAgent implements ClassFileTransformer {

    private static volatile boolean installed;
    private static volatile Instrumentation instrumentation;
    /** The JVM's own stderr (the kernel log): a cell's System.err is redirected into the notebook. */
    private static final PrintStream LOG = System.err;

    public static void premain(String args, Instrumentation inst) {
        inst.addTransformer(new StopAgent(), false);
        instrumentation = inst;
        installed = true;
    }

    /**
     * Opens {@code pkg} of {@code module} to {@code to} for deep reflection, as {@code --add-opens} would (used for
     * JShell's Javadoc sources: {@link JavadocSources}). Needs this agent.
     *
     * @throws IllegalStateException when the JVM was started without it
     */
    static void openPackage(Module module, String pkg, Module to) {
        if (module.isOpen(pkg, to)) return;
        Instrumentation inst = instrumentation;
        if (inst == null) {
            throw new IllegalStateException("started without -javaagent: cannot open " + module.getName() + "/" + pkg);
        }
        inst.redefineModule(
                module,
                java.util.Set.of(),
                java.util.Map.of(),
                java.util.Map.of(pkg, java.util.Set.of(to)),
                java.util.Set.of(),
                java.util.Map.of());
    }

    /** True when the JVM was started with this agent: CPU loops in cells can be stopped. */
    public static boolean isInstalled() {
        return installed;
    }

    @Override
    public byte[] transform(
            ClassLoader loader,
            String className,
            Class<?> classBeingRedefined,
            ProtectionDomain protectionDomain,
            byte[] classfileBuffer) {
        if (classBeingRedefined != null || !StopCheckWeaver.isSnippetClass(className)) {
            return null;
        }
        try {
            return StopCheckWeaver.weave(classfileBuffer, loader);
        } catch (Throwable t) {
            // The class still works, it just cannot be stopped while it loops: say so in the kernel's log.
            LOG.println("[course-kernel] could not weave stop checks into " + className + ": " + t);
            return null;
        }
    }
}
