from conftest import PLAYERS, new_table

from bot.service import TableService


async def test_a_whole_game_through_the_service(service: TableService, notifier) -> None:
    table = await new_table(service, humans=2, bots=1)
    info = await service.info(table)
    steps = 0
    while info.status == "running":
        seat, _ = sorted(info.waiting.items())[0]
        prompt = await service.prompt(table, PLAYERS[seat])
        await service.act(table, PLAYERS[seat], prompt.options[0].json, version=prompt.version)
        info = await service.info(table)
        steps += 1
    assert info.status == "finished"
    print("\n".join(notifier.texts))
    report = await service.verify(table)
    assert report.ok, report
