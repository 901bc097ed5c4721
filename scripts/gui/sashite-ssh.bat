@echo off
rem The engine file to register in a Windows shogi GUI: sashite on a Linux machine over ssh.
rem Edit user, host and path; the key must not ask for a passphrase (-o BatchMode=yes).
ssh -T -o BatchMode=yes user@host /home/user/sashite/build/sashite usi
