package io.delayq.app.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Whether a local run can listen where it is asked to, checked before it spends time starting Redis and sample data. */
public final class FreePort {
    private FreePort() {
    }

    /** @return null when {@code host:port} can be bound now (port 0 always can), else why not */
    public static String problem(String host, int port) {
        if (port == 0) {
            return null;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port));
            return null;
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** @return {@code preferred} when it is free on every interface, else 0 (any free port) */
    public static int preferredOrAny(int preferred) {
        try (ServerSocket ignored = new ServerSocket(preferred)) {
            return preferred;
        } catch (IOException e) {
            return 0;
        }
    }
}
