package course.kit.charts;

/** Where {@link Lanes} draws, for the tests of other packages that check its pixels (CarrierTraceTest). */
public final class LanesGeometry {
    private LanesGeometry() {}

    /** The RGB of the colour of task or virtual thread {@code n}. */
    public static int colour(int n) {
        return Lanes.PALETTE[n % Lanes.PALETTE.length].getRGB() & 0xffffff;
    }

    /** The middle row of lane {@code l}'s bars. */
    public static int laneMiddle(Lanes lanes, int l) {
        return lanes.laneTop(l) + lanes.barHeight() / 2;
    }

    /** The top row of lane {@code l}. */
    public static int laneTop(Lanes lanes, int l) {
        return lanes.laneTop(l);
    }

    /** The height of a bar. */
    public static int barHeight(Lanes lanes) {
        return lanes.barHeight();
    }

    /** The column of instant {@code nanos}. */
    public static int x(Lanes lanes, long nanos) {
        return lanes.x(nanos);
    }
}
