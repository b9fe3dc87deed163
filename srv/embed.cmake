# Turns a file into a C source defining a NUL-terminated byte array, so the
# binary carries the document it serves (it never reads the source tree).
# cmake -DIN=file -DOUT=file.c -DNAME=symbol -P embed.cmake
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE ${OUT} "/* Generated from ${IN} by srv/embed.cmake; do not edit. */\n"
     "#include <stddef.h>\n"
     "const unsigned char ${NAME}[] = {\n${body}0x00};\n"
     "const size_t ${NAME}_len = ${bytes};\n")
