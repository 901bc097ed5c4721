@echo off
rem The engine file to register in a Windows shogi GUI: sashite built inside WSL.
rem Edit the path to where build/sashite is inside WSL (and -d DISTRIBUTION if not the default).
wsl.exe -e /root/sashite/build/sashite usi
