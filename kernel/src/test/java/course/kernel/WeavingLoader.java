package course.kernel;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Loads the test's {@code REPL.*} classes itself, woven or plain, the way JShell's loader defines snippets. */
final class WeavingLoader extends ClassLoader {

    private final boolean weave;

    WeavingLoader(boolean weave) {
        super(WeavingLoader.class.getClassLoader());
        this.weave = weave;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!CellStop.isSnippetClass(name)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                byte[] bytes = bytesOf(name);
                if (weave) {
                    bytes = StopCheckWeaver.weave(bytes, this);
                }
                c = defineClass(name, bytes, 0, bytes.length);
            }
            if (resolve) {
                resolveClass(c);
            }
            return c;
        }
    }

    static byte[] bytesOf(String name) {
        String resource = name.replace('.', '/') + ".class";
        try (InputStream in = WeavingLoader.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no class file " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
