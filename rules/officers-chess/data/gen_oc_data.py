#!/usr/bin/env python3
"""Turns the author's published tables (this folder: classes and weapons
v0.9, accessories and consumables v0.8) into oc_data_gen.c, the C tables the
ruleset is built from (RULINGS.md O1). The generated file is checked in so the
build needs no Python; `gen_oc_data.py --check` (a unit test) fails when it
no longer matches the data files.

    gen_oc_data.py [--check] [--out PATH]

Every tag is parsed here into named fields; a row whose tags the text does
not define is kept but marked not offered, with the reason (README lists
them)."""
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RATINGS = "FEDCBAS"
STATS = ["Str", "Mag", "Dex", "Spd", "Def", "Res"]
# The weapon tables' types, and the names the class table gives them.
WTYPES = ["Sword", "Axe", "Lance", "Bow", "Dagger", "Art", "Tome", "Staff"]
PROF_ALIAS = {"Knife": "Dagger", "Arts": "Art"}
CLASS_TAGS = ["Armor", "Backup", "Canto", "Cavalry", "Covert", "Dragon", "Flying",
              "Mystical", "Qi Adept", "Dance", "Pick"]
STATUS = {"Barrier": "OC_ST_BARRIER", "Break": "OC_ST_BROKEN", "Broken": "OC_ST_BROKEN",
          "Poisoned": "OC_ST_POISONED", "Silence": "OC_ST_SILENCED",
          "Silenced": "OC_ST_SILENCED"}
TERRAIN = {"Ice": "OC_TR_ICE", "Fog": "OC_TR_FOG", "Water": "OC_TR_WATER",
           "Heal Tile": "OC_TR_HEAL", "Stone Pillars": "OC_TR_STONE",
           "Vines": "OC_TR_VINES", "Flames": "OC_TR_FLAMES"}


def md_rows(path):
    """(section, row dict) of every table row in a markdown file."""
    section, header = None, None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("## "):
            section, header = line[3:].strip(), None
            continue
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        if header is None:
            header = cells
        elif set(cells[0]) <= set(":-"):
            continue
        else:
            yield section, dict(zip(header, cells))


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def class_tags(text):
    tags = [t.strip() for t in text.split(",") if t.strip()]
    # classes-v0.9.md prints the Dancer's tags as "Qi Dance, Adept": the
    # words of "Dance, Qi Adept" out of order (README, Rulings needed).
    if tags == ["Qi Dance", "Adept"]:
        tags = ["Dance", "Qi Adept"]
    bits, slow = [], 0
    for t in tags:
        m = re.fullmatch(r"Slow\((\d+)\)", t)
        if m:
            slow = int(m.group(1))
        elif t in CLASS_TAGS:
            bits.append("OC_T_" + t.upper().replace(" ", "_"))
        else:
            raise SystemExit("unknown class tag %r" % t)
    return bits, slow


def classes():
    rows = [r for _, r in md_rows(os.path.join(HERE, "classes-v0.9.md"))]
    count = {}
    for r in rows:
        count[r["Class"]] = count.get(r["Class"], 0) + 1
    out = []
    for r in rows:
        profs = {}
        for m in re.finditer(r"(\w+)\[([FEDCBAS])\+?\]", r["Proficencies"]):
            t = PROF_ALIAS.get(m.group(1), m.group(1))
            profs[t] = RATINGS.index(m.group(2))
        name = r["Class"]
        cid = name
        if count[name] > 1:
            # Variants share a name: the id names the proficiencies that
            # differ between them ("Bow Knight (Sword)").
            sib = [x for x in rows if x["Class"] == name]
            common = None
            for x in sib:
                ts = set(PROF_ALIAS.get(m.group(1), m.group(1))
                         for m in re.finditer(r"(\w+)\[", x["Proficencies"]))
                common = ts if common is None else common & ts
            diff = [t for t in profs if t not in common]
            cid = "%s (%s)" % (name, "/".join(diff))
        bits, slow = class_tags(r["Tags"])
        out.append(dict(id=cid, name=name, hp=int(r["HP"]) - 7, table_hp=int(r["HP"]),
                        ratings=[RATINGS.index(r[s]) for s in STATS],
                        prof=[profs.get(t, -1) for t in WTYPES], tags=bits, slow=slow,
                        promoted=r["Promoted"] == "Yes"))
    return out


def rng(text):
    if text == "Inf":
        return 1, -1
    if text in ("—", "-", ""):
        return 0, 0
    m = re.fullmatch(r"(\d+)(?:~(\d+))?", text)
    a = int(m.group(1))
    return a, int(m.group(2) or a)


def item_tags(text, it):
    """Fills the item's fields from its tags; returns the undefined ones."""
    undefined = []
    for t in text.split():
        m = re.fullmatch(r"(\w+)(?:\((.*)\))?", t)
        if not m:
            undefined.append(t)
            continue
        tag, arg = m.group(1), m.group(2)
        if tag in ("Heavy", "Brave", "Complex", "Enchanted", "Drain", "Homing", "Inverted",
                   "Piercing") and arg is None:
            it[tag.lower()] = 1
            if tag == "Enchanted":
                it["magic"] = 1
        elif tag == "AoE":
            it["aoe"] = 1
        elif tag == "Inaccurate" and arg and arg.isdigit():
            it["bonus"][STATS.index("Dex")] -= int(arg)   # Dexterity Rating -X
        elif tag == "Deadly":
            it["deadly"] += int(arg)
        elif tag == "Lucky":
            it["lucky"] += int(arg)
        elif tag == "Nimble":
            it["nimble"] += int(arg)
        elif tag == "Fast":
            it["fast"] += int(arg)
        elif tag == "Consumable":
            it["uses"] = int(arg)
        elif tag == "Effective" and arg in CLASS_TAGS:
            it["effective"].append("OC_T_" + arg.upper().replace(" ", "_"))
        elif tag in ("Status", "Effect") and arg in STATUS:
            it["status"] = STATUS[arg]
            if it["special"] == "OC_SP_NONE":
                it["special"] = "OC_SP_STATUS"
        elif tag in ("Bonus", "Cursed") and re.fullmatch(r"(\w+)([+-]\d+)", arg or ""):
            s, n = re.fullmatch(r"(\w+)([+-]\d+)", arg).groups()
            n = int(n)
            if tag == "Cursed":
                n = -abs(n)
            if s == "Agi":
                it["agi"] += n
            elif s in STATS:
                it["bonus"][STATS.index(s)] += n
            else:
                undefined.append(t)   # "Skl" is not one of the six Ratings
        elif tag == "Heal" and arg:
            it["special"], it["sp_arg"] = "OC_SP_HEAL", int(arg)
        elif tag == "Torch" and arg:
            it["special"], it["sp_arg"] = "OC_SP_TORCH", int(arg)
        elif tag == "Vein" and arg in TERRAIN:
            it["special"], it["sp_arg"] = "OC_SP_VEIN", TERRAIN[arg]
        elif tag in ("Entrap", "Freeze", "Rescue", "Restore", "Rewarp", "Warp", "Pick") \
                and arg is None:
            it["special"] = "OC_SP_" + tag.upper()
        elif tag == "Canto" and arg is None:
            it["canto"] = 1
        else:
            undefined.append(t)
    return undefined


def new_item(name, kind):
    return dict(name=name, kind=kind, wtype=-1, level=0, mt=0, wt=0, hit=0, rmin=0, rmax=0,
                magic=0, heavy=0, brave=0, complex=0, aoe=0, drain=0, homing=0, inverted=0,
                piercing=0, deadly=0, effective=[], status="OC_ST_NONE", bonus=[0] * 6, agi=0,
                lucky=0, nimble=0, fast=0, canto=0, defense=0, uses=0, special="OC_SP_NONE",
                sp_arg=0, enchanted=0, why="", tags="")


def items():
    out = []
    for section, r in md_rows(os.path.join(HERE, "weapons-v0.9.md")):
        it = new_item(r["Name"], "OC_WEAPON")
        it["wtype"] = WTYPES.index(r["Type"])
        it["level"] = RATINGS.index(r["Lvl"])
        it["mt"], it["wt"], it["hit"] = int(r["Mt"]), int(r["Wt"]), int(r["Hit"])
        it["rmin"], it["rmax"] = rng(r["Rng"])
        it["magic"] = 1 if r["DmgType"] == "Mag" else 0
        it["tags"] = r["Tags"]
        und = item_tags(r["Tags"], it)
        if und:
            it["why"] = "tags the text does not define: " + " ".join(und)
        elif r["Type"] == "Staff" and it["special"] == "OC_SP_NONE":
            it["why"] = "a staff with no Special Action tag does nothing (Use a Staff)"
        out.append(it)
    for r in csv.DictReader(open(os.path.join(HERE, "accessories-v0.8.csv"), encoding="utf-8")):
        it = new_item(r["Name"], "OC_ACCESSORY")
        it["defense"], it["wt"] = int(r["Def"]), int(r["Wt"])
        it["tags"] = r["Tags"]
        und = item_tags(r["Tags"], it)
        if und:
            it["why"] = "tags the text does not define: " + " ".join(und)
        out.append(it)
    for r in csv.DictReader(open(os.path.join(HERE, "consumables-v0.8.csv"), encoding="utf-8")):
        it = new_item(r["Name"], "OC_CONSUMABLE")
        it["tags"] = r["Tags"]
        und = item_tags(r["Tags"], it)
        if und:
            it["why"] = "tags the text does not define: " + " ".join(und)
        out.append(it)
    return out


def render():
    o = ["/* Generated by data/gen_oc_data.py from the .md and .csv files in data/: do not",
         " * edit; change the data files and run the generator (a unit test checks",
         " * that this file matches them). */",
         '#include "oc_rules.h"', "", "const struct oc_class oc_classes[] = {"]
    cl = classes()
    for c in cl:
        o.append("\t{%s, %s, %d, %d, {%s}, {%s}, %s, %d, %d}," % (
            cstr(c["id"]), cstr(c["name"]), c["hp"], c["table_hp"],
            ", ".join(map(str, c["ratings"])), ", ".join(map(str, c["prof"])),
            " | ".join(c["tags"]) or "0", c["slow"], 1 if c["promoted"] else 0))
    o += ["};", "const int oc_nclasses = %d;" % len(cl), "", "const struct oc_item oc_items[] = {"]
    it = items()
    for i in it:
        o.append(("\t{%s, %s, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d,"
                  " %d, %s, %s, {%s}, %d, %d, %d, %d, %d, %d, %d, %s, %s, %d, %s},") % (
            cstr(i["name"]), i["kind"], i["wtype"], i["level"], i["mt"], i["wt"], i["hit"],
            i["rmin"], i["rmax"], i["magic"], i["heavy"], i["brave"], i["complex"], i["aoe"],
            i["drain"], i["homing"], i["inverted"], i["piercing"], i["deadly"],
            " | ".join(i["effective"]) or "0", i["status"], ", ".join(map(str, i["bonus"])),
            i["agi"], i["lucky"], i["nimble"], i["fast"], i["canto"], i["defense"], i["uses"],
            i["special"], str(i["sp_arg"]), 0 if i["why"] else 1,
            cstr(i["why"]) if i["why"] else '""'))
        o[-1] = o[-1][:-2] + ", " + cstr(i["tags"]) + "},"
    o += ["};", "const int oc_nitems = %d;" % len(it), ""]
    return "\n".join(o)


def main():
    out = os.path.join(HERE, "..", "oc_data_gen.c")
    check = "--check" in sys.argv
    if "--out" in sys.argv:
        out = sys.argv[sys.argv.index("--out") + 1]
    text = render()
    if check:
        have = open(out, encoding="utf-8").read()
        if have != text:
            sys.exit("oc_data_gen.c does not match the data files: run gen_oc_data.py")
        print("oc_data_gen.c matches %d classes and %d items" % (len(classes()), len(items())))
        return
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
