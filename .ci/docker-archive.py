#!/usr/bin/env python3
"""Writes a one-layer docker archive (the `docker save` format containerd's `ctr images import` reads)
holding a single static binary at /<name> as the entrypoint. Used for the pod sandbox ("pause")
image, which no registry serves here: no container engine is needed to make it.

usage: docker-archive.py BINARY REPO:TAG OUT.tar
"""
import hashlib
import io
import json
import os
import sys
import tarfile

MTIME = 1767225600  # 2026-01-01T00:00:00Z: the same binary gives the same archive


def layer_tar(binary):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        info = tar.gettarinfo(binary, arcname=os.path.basename(binary))
        info.mode, info.uid, info.gid, info.uname, info.gname, info.mtime = 0o755, 0, 0, "", "", MTIME
        with open(binary, "rb") as f:
            tar.addfile(info, f)
    return buf.getvalue()


def add(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), MTIME, 0o644
    tar.addfile(info, io.BytesIO(data))


def main(binary, ref, out):
    layer = layer_tar(binary)
    diff_id = "sha256:" + hashlib.sha256(layer).hexdigest()
    config = json.dumps({
        "architecture": "amd64" if os.uname().machine == "x86_64" else "arm64",
        "os": "linux",
        "config": {"Entrypoint": ["/" + os.path.basename(binary)]},
        "rootfs": {"type": "layers", "diff_ids": [diff_id]},
        "created": "2026-01-01T00:00:00Z",
    }, sort_keys=True).encode()
    config_name = hashlib.sha256(config).hexdigest() + ".json"
    layer_name = diff_id[len("sha256:"):] + "/layer.tar"
    manifest = json.dumps([{"Config": config_name, "RepoTags": [ref], "Layers": [layer_name]}]).encode()
    with tarfile.open(out, "w", format=tarfile.USTAR_FORMAT) as tar:
        add(tar, config_name, config)
        add(tar, layer_name, layer)
        add(tar, "manifest.json", manifest)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
