package io.delayq.images.build;

import io.delayq.images.podman.Podman;

import java.util.EnumMap;
import java.util.Map;

/** Each image archive loaded into podman once per test JVM; the name is the one its archive tags. */
public final class LoadedImages {
    private static final Map<ImageArchives, String> LOADED = new EnumMap<>(ImageArchives.class);

    private LoadedImages() {
    }

    public static synchronized String of(ImageArchives archive, Podman podman) {
        return LOADED.computeIfAbsent(archive, a -> podman.load(a.require()));
    }
}
