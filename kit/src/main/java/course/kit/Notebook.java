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

    /**
     * Shows {@code value} now, as {@link #display(Object)} does, and remembers it: if the same object is then also
     * the cell's value (the call was the cell's last line), the kernel shows it once, not twice: the display provider
     * renders it as an empty text then. {@link Prediction} shows its guess and its outcome this way.
     */
    public static void showOnce(Object value) {
        display(value);
        synchronized (SHOWN) {
            SHOWN[shownNext] = value;
            shownNext = (shownNext + 1) % SHOWN.length;
        }
    }

    /** Whether {@code value}, this very object, was shown by {@link #showOnce(Object)} lately (the last 32 shown). */
    public static boolean shown(Object value) {
        if (value == null) return false;
        synchronized (SHOWN) {
            for (Object o : SHOWN) if (o == value) return true;
        }
        return false;
    }

    private static final Object[] SHOWN = new Object[32];
    private static int shownNext;

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
