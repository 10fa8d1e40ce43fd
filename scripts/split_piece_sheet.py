#!/usr/bin/env python3
"""Split one of pychess's all-in-one piece sheets into twelve SVG files.

Usage: python3 scripts/split_piece_sheet.py SHEET.svg OUTDIR

The sheets of Maurizio Monge's sets in Debian's pychess package
(/usr/share/pychess/pieces/{celtic,spatial}/NAME.svg) are 1200x400: king,
queen, rook, bishop, knight, pawn across in 200 px cells, black above white,
each piece a group with an id such as "WhiteKnight". Each output file keeps
one piece's group and the definitions (gradients) it uses, with the viewBox
set to its cell; editor metadata is dropped. The drawing is not changed.
Writes OUTDIR/wK.svg ... OUTDIR/bP.svg, the names static/js/pieces.js uses.
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

SVG = 'http://www.w3.org/2000/svg'
XLINK = 'http://www.w3.org/1999/xlink'
ET.register_namespace('', SVG)
ET.register_namespace('xlink', XLINK)

COLUMN = {'K': 0, 'Q': 1, 'R': 2, 'B': 3, 'N': 4, 'P': 5}
NAME = {'K': 'King', 'Q': 'Queen', 'R': 'Rook', 'B': 'Bishop', 'N': 'Knight', 'P': 'Pawn'}
PIECE_GROUP = re.compile(r'^(White|Black)(King|Queen|Rook|Bishop|Knight|Pawn)$')


def local(tag):
    return tag.split('}')[1] if '}' in tag else tag


def references(el):
    """The ids el and its descendants refer to, by url(#id) or href."""
    out = set()
    for e in el.iter():
        for k, v in e.attrib.items():
            out.update(re.findall(r'url\(#([^)]+)\)', v))
            if local(k) == 'href' and v.startswith('#'):
                out.add(v[1:])
    return out


def one_piece(sheet, color, piece):
    root = ET.parse(sheet).getroot()
    keep = ('White' if color == 'w' else 'Black') + NAME[piece]
    for c in list(root):
        if local(c.tag) in ('metadata', 'namedview', 'title', 'desc'):
            root.remove(c)

    def prune(el):
        for c in list(el):
            if local(c.tag) == 'g' and PIECE_GROUP.match(c.get('id', '')):
                if c.get('id') != keep:
                    el.remove(c)
            else:
                prune(c)
    prune(root)
    for e in root.iter():
        for k in list(e.attrib):
            if 'inkscape' in k or 'sodipodi' in k:
                del e.attrib[k]
    # Keep only the definitions the piece uses, following href chains.
    defined = {}
    for d in root.iter():
        if local(d.tag) == 'defs':
            for c in d:
                if c.get('id'):
                    defined[c.get('id')] = (d, c)
    need = set()
    for c in root:
        if local(c.tag) != 'defs':
            need |= references(c)
    todo = list(need)
    while todo:
        i = todo.pop()
        if i in defined:
            for j in references(defined[i][1]) - need:
                need.add(j)
                todo.append(j)
    for i, (d, c) in defined.items():
        if i not in need:
            d.remove(c)
    x, y = COLUMN[piece] * 200, 0 if color == 'b' else 200
    for k in ('id', 'version'):
        root.attrib.pop(k, None)
    root.set('viewBox', f'{x} {y} 200 200')
    root.set('width', '200')
    root.set('height', '200')
    for e in root.iter():
        if e.text is not None and not e.text.strip():
            e.text = None
        e.tail = None
    return ET.tostring(root, encoding='unicode') + '\n'


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sheet, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    for color in 'wb':
        for piece in 'KQRBNP':
            with open(os.path.join(outdir, color + piece + '.svg'), 'w') as f:
                f.write(one_piece(sheet, color, piece))


if __name__ == '__main__':
    main()
