package io.delayq.console.safety;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Slows down guessing of the action token, per client address: the first {@link #FREE_FAILURES}
 * failed sign-ins cost nothing, each further one doubles a wait (1 s, 2 s, 4 s, … at most
 * {@link #MAX_WAIT_MS}) during which that address cannot try at all — not even with the right token.
 * A successful sign-in forgets the address. Behind an Ingress every client may share the controller's
 * address: then a guesser slows everyone's sign-in down, which is the safe side of the trade.
 */
public final class SignInThrottle {
    public static final int FREE_FAILURES = 5;
    public static final long FIRST_WAIT_MS = 1_000;
    public static final long MAX_WAIT_MS = 5 * 60_000;
    /** Addresses remembered at most; beyond it those whose wait is over are forgotten first. */
    static final int MAX_ADDRESSES = 10_000;

    private record Failures(int count, long blockedUntilMs, long lastMs) {
    }

    private final Map<String, Failures> byAddress = new ConcurrentHashMap<>();
    private final LongSupplier clockMs;

    public SignInThrottle(LongSupplier clockMs) {
        this.clockMs = clockMs;
    }

    /** Milliseconds this address must still wait before it may try again; 0 when it may try now. */
    public long waitMs(String address) {
        Failures f = byAddress.get(address);
        return f == null ? 0 : Math.max(0, f.blockedUntilMs() - clockMs.getAsLong());
    }

    /** Counts a failed sign-in; answers how many failed in a row from this address. */
    public int failed(String address) {
        long now = clockMs.getAsLong();
        if (byAddress.size() >= MAX_ADDRESSES) {
            byAddress.entrySet().removeIf(e -> e.getValue().blockedUntilMs() <= now && now - e.getValue().lastMs() > MAX_WAIT_MS);
        }
        Failures f = byAddress.compute(address, (a, old) -> {
            int n = old == null ? 1 : old.count() + 1;
            long wait = n <= FREE_FAILURES ? 0 : Math.min(MAX_WAIT_MS, FIRST_WAIT_MS << Math.min(20, n - FREE_FAILURES - 1));
            return new Failures(n, now + wait, now);
        });
        return f.count();
    }

    public void succeeded(String address) {
        byAddress.remove(address);
    }
}
