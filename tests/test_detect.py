"""Language detection by script counts."""

from __future__ import annotations

import pytest

from testgen.lang.detect import MAX_DETECT_CHARS, detect_language, script_counts, script_of


@pytest.mark.parametrize(
    ("ch", "script"),
    [
        ("a", "latin"),
        ("Z", "latin"),
        ("é", "latin"),
        ("Ａ", "latin"),  # fullwidth Latin
        ("한", "hangul"),
        ("ㄱ", "hangul"),  # compatibility jamo
        ("の", "kana"),
        ("ア", "kana"),
        ("ー", "kana"),  # prolonged sound mark
        ("ｱ", "kana"),  # halfwidth katakana
        ("漢", "han"),
        ("々", "han"),
        ("𠀀", "han"),  # CJK extension B, outside the BMP
        ("1", "other"),
        ("#", "other"),
        ("×", "other"),
        ("・", "other"),
        ("。", "other"),
        (" ", "other"),
        ("Ж", "other"),
        ("", "other"),
    ],
)
def test_script_of(ch: str, script: str) -> None:
    assert script_of(ch) == script


def test_script_counts_ignores_digits_and_punctuation() -> None:
    assert script_counts("abc 한국 の 漢字 123 !?") == {"hangul": 2, "kana": 1, "han": 2, "latin": 3}


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("The quick brown fox jumps over the lazy dog.", "en"),
        ("안녕하세요. 이 문서는 회사 소개입니다.", "ko"),
        ("この文書は会社の概要です。", "ja"),
        ("カタカナだけ", "ja"),
        ("这是公司的概况。我们成立于二零一零年。", "zh"),
        ("這是公司的概況。", "zh"),
        ("", "en"),
        ("   \n\n  ", "en"),
        ("1234 5678 !!! ---", "en"),
        ("Привет, мир", "en"),
        ("Ελληνικά κείμενα", "en"),
    ],
)
def test_detect_language_basic(text: str, language: str) -> None:
    assert detect_language(text) == language


def test_korean_with_english_terms_is_korean() -> None:
    text = "# RAG 시스템 개요\n\n이 시스템은 LLM과 vector DB를 사용하여 질문에 답합니다. API 키가 필요합니다."
    assert detect_language(text) == "ko"


def test_korean_with_hanja_is_korean() -> None:
    assert detect_language("대한민국(大韓民國)은 동아시아에 있는 민주공화국이다.") == "ko"


def test_japanese_kanji_heavy_is_japanese() -> None:
    # Kanji dominate, but a fair share of kana still marks Japanese.
    assert detect_language("東京都千代田区の株式会社が設立登記を申請した。") == "ja"


def test_stray_kana_in_chinese_stays_chinese() -> None:
    text = "我们公司的产品名称是「の」系列，在中国市场上非常受欢迎，销售额年年增长，客户满意度很高。" * 3
    assert detect_language(text) == "zh"


def test_english_with_a_korean_name_is_english() -> None:
    text = "Our Seoul office is led by 김민수, who joined the company in 2019 after ten years in consulting."
    assert detect_language(text) == "en"


def test_urls_and_code_do_not_count() -> None:
    text = (
        "설치 방법은 아래와 같습니다.\n\n"
        "```bash\npip install some-long-package-name --extra-index-url https://example.com/simple\n"
        "export CONFIGURATION_VARIABLE=value_for_the_environment\n```\n\n"
        "자세한 내용은 https://docs.example.com/getting-started/installation-guide 참고,"
        " `configuration_file.yaml`."
    )
    assert detect_language(text) == "ko"


def test_markdown_punctuation_and_digits_ignored() -> None:
    text = "| 항목 | 값 |\n|---|---|\n| 2024 | 1,000,000 |\n| 2025 | 2,000,000 |\n\n- **매출**: 100%"
    assert detect_language(text) == "ko"


def test_only_code_still_guessed_from_code() -> None:
    assert detect_language("```\nprint('hello world')\n```") == "en"


def test_only_the_first_characters_are_read() -> None:
    text = "a" * MAX_DETECT_CHARS + "한국어" * 10_000
    assert detect_language(text) == "en"
