"""Reads the WebDataset shards of a folder as users' loaders do: the `webdataset` package and
Hugging Face `datasets` (its "webdataset" builder, offline). Prints, as JSON, each loader's
samples in order: the key, the files' names, a SHA-256 of each file's bytes, the image's size
decoded by Pillow and the annotations' frame size.

Usage: read_webdataset.py FOLDER  -> {"webdataset": [...], "datasets": [...]} on stdout
"""
import glob
import hashlib
import io
import json
import os
import sys
import tempfile

os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_DISABLE_PROGRESS_BARS"] = "1"

import datasets  # noqa: E402
import webdataset  # noqa: E402
from PIL import Image  # noqa: E402


def digest(data):
    return hashlib.sha256(data).hexdigest()


def with_webdataset(tars):
    samples = []
    for sample in webdataset.WebDataset(tars, shardshuffle=False):
        files = {name: value for name, value in sample.items() if not name.startswith("__")}
        image = Image.open(io.BytesIO(files["png"]))
        samples.append({"key": sample["__key__"], "files": sorted(files),
                        "sha256": {name: digest(value) for name, value in files.items()},
                        "size": list(image.size), "annotatedSize": [json.loads(files["json"])[k] for k in ("width", "height")]})
    return samples


def with_datasets(tars):
    loaded = datasets.load_dataset("webdataset", data_files={"train": tars}, split="train",
                                   cache_dir=tempfile.mkdtemp())
    samples = []
    for row in loaded:
        samples.append({"key": row["__key__"], "size": list(row["png"].size),
                        "annotatedSize": [row["json"]["width"], row["json"]["height"]],
                        "controls": len(row["json"]["controls"]), "glass": len(row["json"]["glass"])})
    return samples


def main(folder):
    tars = sorted(glob.glob(os.path.join(folder, "*.tar")))
    if not tars:
        sys.exit(f"read_webdataset: no .tar in {folder}")
    print(json.dumps({"tars": [os.path.basename(t) for t in tars], "webdataset": with_webdataset(tars),
                      "datasets": with_datasets(tars)}))


if __name__ == "__main__":
    main(sys.argv[1])
