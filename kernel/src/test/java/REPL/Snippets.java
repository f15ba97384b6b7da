package REPL;

import java.util.concurrent.CountDownLatch;

/**
 * Stand-ins for the classes JShell generates for notebook cells (JShell puts them in package {@code REPL}).
 * The tests load this class through {@code WeavingLoader}, woven or not.
 */
public class Snippets {

    /** Filled by a loop in the static initialiser, which the weaver must leave alone. */
    public static final int[] SQUARES = new int[16];

    static {
        for (int i = 0; i < SQUARES.length; i++) {
            SQUARES[i] = i * i;
        }
    }

    public static int answer() {
        return 42;
    }

    /** A pure CPU loop: only a woven stop check can end it. */
    public static void spin() {
        while (true) {}
    }

    /** A long but finite loop, used to show that unwoven code ignores a stop request. */
    public static long countTo(long n) {
        long sum = 0;
        for (long i = 0; i < n; i++) {
            sum += i;
        }
        return sum;
    }

    /** A CPU loop inside a lambda on a virtual thread: lambda bodies are methods of this class. */
    public static Thread spinOnVirtualThread(CountDownLatch started) {
        return Thread.ofVirtual().start(() -> {
            started.countDown();
            long x = 0;
            while (true) {
                x++;
            }
        });
    }

    /** Sleeps in snippet code: ends through an interrupt, not a check. */
    public static void sleepLong(CountDownLatch started) throws InterruptedException {
        started.countDown();
        Thread.sleep(600_000);
    }

    public static class Shape {
        public String name() {
            return "shape";
        }
    }

    public static class Square extends Shape {
        @Override
        public String name() {
            return "square";
        }
    }

    public static class Circle extends Shape {
        private final int r;

        public Circle(int r) {
            this.r = r;
        }

        @Override
        public String name() {
            return "circle" + r;
        }
    }

    /**
     * Merges two snippet types (Square, Circle) at a loop head: recomputing this method's stack-map frames
     * needs the hierarchy of snippet classes, which only the defining loader knows.
     */
    public static String pick(int n) {
        Shape s = n % 2 == 0 ? new Square() : new Circle(n);
        for (int i = 0; i < n; i++) {
            s = i % 3 == 0 ? new Circle(i) : s;
        }
        return s.name();
    }
}
