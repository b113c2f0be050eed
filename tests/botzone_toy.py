"""A small Botzone FightTheLandlord bot for the tests, written against the protocol alone.

It bids 0, leads its lowest card as a single and passes whenever it answers.
Flags make it misbehave: --keep-running (stay up between turns), --crash
(exit 3 at its first play), --silent (never answer a play), --illegal (lead
a card it does not hold), --chatty (two lines for one turn).
"""

import json
import sys
import time

KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def answer(requests, responses, flags):
    request = requests[-1]
    if "bid" in request and "history" not in request:
        return 0
    if "--crash" in flags:
        sys.exit(3)
    if "--silent" in flags:
        time.sleep(60)
    setup = next(r for r in requests if "publiccard" in r)
    mine = list(setup["own"])
    if setup["pos"] == setup["landlord"]:
        mine += setup["publiccard"]
    for given in responses:
        if isinstance(given, list):
            for card in given:
                mine.remove(card)
    history = request["history"]
    if history[0] or history[1]:
        return []
    if "--illegal" in flags:
        return [card for card in range(54) if card not in mine][:1]
    return [min(mine, key=lambda c: (c // 4 if c < 52 else 13 + (c == 53), c))]


def main():
    flags = sys.argv[1:]
    requests, responses = [], []
    for line in sys.stdin:
        data = json.loads(line)
        if "requests" in data:
            requests, responses = data["requests"], data["responses"]
        else:
            requests.append(data)
        result = answer(requests, responses, flags)
        responses.append(result)
        print(json.dumps({"response": result}), flush=True)
        if "--chatty" in flags:
            print(json.dumps({"response": result}), flush=True)
        if "--keep-running" not in flags:
            return
        print(KEEP, flush=True)


if __name__ == "__main__":
    main()
