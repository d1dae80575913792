"""Decoding a picture's every pixel, refusing a file cut short whatever another library told Pillow."""

from __future__ import annotations

from PIL import Image, ImageFile


def load_whole(image: Image.Image) -> None:
    """Decode every pixel, raising OSError on a file cut short.

    WeasyPrint, once imported (for the booklets), tells Pillow to accept truncated images for the whole
    process; a damaged picture would then print half grey, or a damaged kept drawing be used as whole.
    """
    accepting = ImageFile.LOAD_TRUNCATED_IMAGES
    ImageFile.LOAD_TRUNCATED_IMAGES = False
    try:
        image.load()
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = accepting
