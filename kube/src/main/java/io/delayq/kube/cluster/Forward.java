package io.delayq.kube.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A TCP forward from an address of the node's pod network to a server on loopback (the API server, a Redis): pods
 * reach what the test started without that server listening beyond loopback.
 */
public final class Forward implements AutoCloseable {
    private final ServerSocket server;
    private final int target;

    private Forward(ServerSocket server, int target) {
        this.server = server;
        this.target = target;
        Thread accept = new Thread(this::accept, "forward-" + server.getLocalPort() + "-to-" + target);
        accept.setDaemon(true);
        accept.start();
    }

    /** Listens on {@code address} (a free port) and forwards every connection to 127.0.0.1:{@code targetPort}. */
    public static Forward open(String address, int targetPort) {
        try {
            ServerSocket server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
            return new Forward(server, targetPort);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + address, e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket in = server.accept();
                Socket out = new Socket(InetAddress.getLoopbackAddress(), target);
                pipe(in, out);
                pipe(out, in);
            } catch (IOException e) {
                // closed, or the target refused one connection: the client sees its connection end
            }
        }
    }

    private static void pipe(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // one side went away
            } finally {
                try {
                    to.close();
                    from.close();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        }, "forward-pipe");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // nothing left to free
        }
    }
}
