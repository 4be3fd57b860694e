"""The Python package (python/liquidlens) against the command line: the same pixels, the same
annotations, the same error lines. Run by PythonPackageTests.swift with the test tools'
interpreter, where Tests/test-tools.sh installed the package as the README says; it finds the
shared library at $LIQUIDLENS_LIBRARY and the CLI at $LIQUIDLENS_CLI.
"""
import importlib.metadata
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import liquidlens

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "Tests" / "Samples"
CLI = os.environ["LIQUIDLENS_CLI"]
LENS = json.loads((SAMPLES / "lens.json").read_text())


def cli(*arguments, check=True):
    result = subprocess.run([CLI, *map(str, arguments)], capture_output=True, text=True)
    if check:
        assert result.returncode == 0, result.stderr
    return result


def png(path):
    return np.asarray(Image.open(path).convert("RGBA"))


@pytest.fixture(scope="module")
def cpu():
    with liquidlens.Renderer(backend="cpu") as renderer:
        yield renderer


@pytest.fixture(scope="module")
def vulkan():
    with liquidlens.Renderer(backend="vulkan") as renderer:
        yield renderer


def test_the_package_is_installed_from_this_checkout():
    assert importlib.metadata.version("liquidlens") == "0.1.0"
    assert Path(liquidlens.__file__).resolve().is_relative_to(ROOT / "python")


@pytest.mark.parametrize("backend", ["cpu", "vulkan"])
def test_render_gives_the_clis_pixels(backend, tmp_path, request):
    renderer = request.getfixturevalue(backend)
    assert renderer.backend == backend
    image = renderer.render(SAMPLES / "lens.json")
    cli("render", SAMPLES / "lens.json", "-o", tmp_path / "lens.png", "--backend", backend, "-q")
    assert image.dtype == np.uint8 and image.shape == (440, 720, 4) and image.flags["C_CONTIGUOUS"]
    assert image.flags["OWNDATA"]
    assert np.array_equal(image, png(tmp_path / "lens.png"))


def test_vulkan_draws_the_cpus_pixels(cpu, vulkan):
    assert vulkan.device
    assert np.array_equal(vulkan.render(SAMPLES / "lens.json"), cpu.render(SAMPLES / "lens.json"))


def test_a_dict_json_text_and_a_path_are_the_same_scene(cpu, monkeypatch):
    monkeypatch.chdir(SAMPLES)
    from_path = cpu.render("lens.json")
    assert np.array_equal(cpu.render(LENS), from_path)
    assert np.array_equal(cpu.render(json.dumps(LENS)), from_path)
    assert np.array_equal(cpu.render(json.dumps(LENS).encode()), from_path)


def test_annotations_are_the_clis(cpu, tmp_path):
    image, annotations = cpu.render_annotated(SAMPLES / "controls.json")
    cli("render", SAMPLES / "controls.json", "-o", tmp_path / "c.png", "--annotations", tmp_path / "c.json",
        "--backend", "cpu", "-q")
    assert annotations == json.loads((tmp_path / "c.json").read_text())
    assert annotations["width"] == image.shape[1] and annotations["height"] == image.shape[0]
    assert annotations["controls"]


def grey(path):
    return np.asarray(Image.open(path))


@pytest.mark.parametrize("backend", ["cpu", "vulkan"])
def test_masks_are_the_clis(backend, tmp_path, request):
    renderer = request.getfixturevalue(backend)
    image, annotations = renderer.render_annotated(SAMPLES / "lens.json", masks=True)
    cli("render", SAMPLES / "lens.json", "-o", tmp_path / "c.png", "--masks", "--backend", backend, "-q")
    masks = annotations["masks"]
    assert sorted(masks) == ["glass", "tint"]
    for name, mask in masks.items():
        assert mask.dtype == np.uint8 and mask.shape == image.shape[:2], name
        assert np.array_equal(mask, grey(tmp_path / f"c.{name}.png")), name
    assert masks["glass"].any() and masks["tint"].any()
    assert not masks["tint"][masks["glass"] == 0].any(), "the accent shows only under glass"
    assert "masks" not in renderer.render_annotated(SAMPLES / "lens.json")[1]


def test_frames_carry_masks_with_or_without_annotations(cpu, tmp_path):
    cli("batch", SAMPLES / "random.json", "-o", tmp_path / "batch", "--masks", "--backend", "cpu", "-q")
    for annotated in (True, False):
        for index, image, annotations in cpu.frames(SAMPLES / "random.json", shard=(1, 3), annotations=annotated,
                                                    masks=True):
            name = f"random-{index + 1:05d}"
            assert ("glass" in annotations) == annotated
            for mask in ("glass", "tint"):
                assert np.array_equal(annotations["masks"][mask], grey(tmp_path / "batch" / f"{name}.{mask}.png"))


@pytest.mark.parametrize("mistake", [
    {"glass": [{"optics": {"frost": "a lot"}}]},
    {"canvas": {"width": 0}},
    {"glass": [{"shape": "blob"}]},
])
def test_a_wrong_scene_raises_the_clis_line(cpu, tmp_path, mistake):
    scene = json.loads(json.dumps(LENS))
    for key, value in mistake.items():
        if isinstance(value, list):
            scene[key][0] = {**scene[key][0], **value[0]}
        else:
            scene[key] = {**scene[key], **value}
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(scene))
    with pytest.raises(liquidlens.SceneError) as raised:
        cpu.render(path)
    printed = cli("render", path, "-o", tmp_path / "x.png", check=False)
    assert printed.returncode != 0
    assert printed.stderr.strip().splitlines()[-1] == f"Error: {raised.value.message}"
    assert raised.value.key_path and raised.value.key_path in raised.value.message
    assert isinstance(raised.value, ValueError)
    with pytest.raises(liquidlens.SceneError) as inline:
        cpu.render(scene)
    assert inline.value.message == raised.value.message.removeprefix(f"{path}: ")


def test_inputs_that_are_no_scene(cpu, tmp_path):
    with pytest.raises(FileNotFoundError):
        cpu.render(tmp_path / "missing.json")
    with pytest.raises(TypeError):
        cpu.render(42)
    with pytest.raises(liquidlens.SceneError):
        cpu.render("{not json")
    with pytest.raises(liquidlens.SceneError):
        liquidlens.Renderer(backend="metal")


def test_frames_are_the_clis_batch(cpu, tmp_path):
    cli("batch", SAMPLES / "random.json", "-o", tmp_path / "batch", "--annotations", "--backend", "cpu", "-q")
    stream = cpu.frames(SAMPLES / "random.json")
    assert len(stream) == 6
    seen = []
    for index, image, annotations in stream:
        name = f"random-{index + 1:05d}"
        assert np.array_equal(image, png(tmp_path / "batch" / f"{name}.png")), name
        assert annotations == json.loads((tmp_path / "batch" / f"{name}.json").read_text()), name
        seen.append(index)
    assert seen == list(range(6))


@pytest.mark.parametrize("backend", ["cpu", "vulkan"])
def test_shards_together_are_the_whole_batch(backend, request):
    renderer = request.getfixturevalue(backend)
    whole = [(index, image) for index, image, _ in renderer.frames(SAMPLES / "random.json", annotations=False)]
    parts = [frame for shard in range(3)
             for frame in renderer.frames(SAMPLES / "random.json", shard=(shard, 3), annotations=False)]
    assert [index for index, _ in whole] == [frame.index for frame in parts] == list(range(6))
    assert all(np.array_equal(a, frame.image) for (_, a), frame in zip(whole, parts))
    assert all(frame.annotations is None for frame in parts)


def test_stopping_early_closes_the_stream(cpu):
    for _ in range(3):
        stream = cpu.frames(SAMPLES / "random.json")
        index, _, _ = next(stream)
        assert index == 0
        stream.close()
        assert list(stream) == []
    with cpu.frames(SAMPLES / "random.json", shard=(1, 2)) as stream:
        assert next(stream).index == 3


def test_a_wrong_manifest_or_frame_raises(cpu, tmp_path):
    with pytest.raises(liquidlens.SceneError) as raised:
        cpu.frames({"scene": "lens.json", "count": 0})
    assert raised.value.key_path
    broken = {"scene": str(SAMPLES / "lens.json"), "name": "broken",
              "sweep": [{"key": "glass[0].optics.frost", "values": [2, 4, 999]}]}
    with pytest.raises(liquidlens.SceneError) as late:
        list(cpu.frames(broken))
    assert "frame 3 (broken-00003)" in late.value.message


def test_threads_share_a_renderer(cpu):
    expected = cpu.render(SAMPLES / "lens.json")
    results = [None] * 4

    def work(slot):
        results[slot] = cpu.render(SAMPLES / "lens.json")

    threads = [threading.Thread(target=work, args=(slot,)) for slot in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(np.array_equal(result, expected) for result in results)


def test_a_render_lets_go_of_the_gil(cpu, monkeypatch):
    monkeypatch.chdir(SAMPLES)
    scene = json.loads(json.dumps(LENS))
    scene["canvas"].update(width=720, height=440, scale=4)
    scene["glass"][0]["optics"]["frost"] = 30
    switch = sys.getswitchinterval()
    ticks = 0
    running = True

    def count():
        nonlocal ticks
        while running:
            ticks += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        before, started = ticks, time.perf_counter()
        time.sleep(0.2)
        alone = (ticks - before) / (time.perf_counter() - started)
        before, started = ticks, time.perf_counter()
        renders = 0
        # At least 0.3 s of renders, however many cores make one fast.
        while renders == 0 or time.perf_counter() - started < 0.3:
            cpu.render(scene)
            renders += 1
        during = ticks - before
    finally:
        running = False
        counter.join()
    # Held through each call, the GIL would let the counting thread run only for about a switch
    # interval between calls; let go, the thread counts through the renders even with a small
    # share of a busy machine's cores.
    assert during > alone * 3 * switch * (renders + 1), (during, alone, renders)


def test_closing_a_renderer_waits_for_renders_in_flight(monkeypatch):
    monkeypatch.chdir(SAMPLES)
    renderer = liquidlens.Renderer(backend="cpu")
    entered = threading.Event()
    original = liquidlens._native.call

    def call(name, *arguments):
        if name == "liquidlens_render":
            entered.set()
        return original(name, *arguments)

    monkeypatch.setattr(liquidlens._native, "call", call)
    results = []
    worker = threading.Thread(target=lambda: results.append(renderer.render("lens.json")))
    worker.start()
    assert entered.wait(60)
    renderer.close()
    worker.join()
    assert len(results) == 1 and results[0].shape == (440, 720, 4)
    with pytest.raises(ValueError):
        renderer.render("lens.json")
    stream = liquidlens.frames("random.json", backend="cpu", annotations=False)
    assert [frame.index for frame in stream] == list(range(6))


def test_shards_are_checked(cpu):
    for shard in [(3, 3), (-1, 2), (0, 0), ("0", 1), (0, 2**62 + 1), (0.5, 2)]:
        with pytest.raises(liquidlens.SceneError):
            cpu.frames(SAMPLES / "random.json", shard=shard)
    assert len(cpu.frames(SAMPLES / "random.json", shard=(np.int64(1), np.int64(2)))) == 3
