package course.kit;

import org.rapaio.jupyter.kernel.global.Global;

/**
 * The kit's bridge to the Jupyter kernel it may run in. Outside the course kernel (a plain {@code java}
 * process, a unit test) {@link #display(Object)} prints the object's text instead, and progress is silent.
 */
public final class Notebook {
    private Notebook() {}

    /** Whether this JVM is the course's Jupyter kernel (its kernelspec sets {@code -Dcourse.kernel}). */
    public static boolean inKernel() {
        if (System.getProperty("course.kernel") == null) return false;
        try {
            Class.forName("org.rapaio.jupyter.kernel.global.Global", false, Notebook.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /**
     * Shows {@code value} as a new output of the running cell (a chart as PNG, a table as HTML) and returns
     * its display id, for {@link #update(String, Object)}; outside the kernel it prints {@code value} and
     * returns null.
     */
    public static String display(Object value) {
        if (inKernel()) return Kernel.display(value);
        System.out.println(value);
        return null;
    }

    /** Replaces the output shown under {@code id} (from {@link #display(Object)}); a no-op outside the kernel. */
    public static void update(String id, Object value) {
        if (id != null && inKernel()) Kernel.update(id, value);
    }

    /** Calls into rapaio only when it is there: this class is never linked outside the kernel. */
    private static final class Kernel {
        static String display(Object value) {
            return Global.display(value);
        }

        static void update(String id, Object value) {
            Global.updateDisplay(id, value);
        }
    }
}
