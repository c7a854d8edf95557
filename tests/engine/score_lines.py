"""Reading a score's lines in tests: items by their Chinese name, and the total."""


def items(result: dict) -> dict[str, int]:
    """Score items by their Chinese name (the part before the English gloss), summed over repeats."""
    out: dict[str, int] = {}
    for i in result["score"]["items"]:
        name = i["name"].split(" (")[0]
        out[name] = out.get(name, 0) + i["value"]
    return out


def total(result: dict) -> int:
    return result["score"]["total"]
