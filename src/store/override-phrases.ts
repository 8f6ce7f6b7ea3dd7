/**
 * "Ignore the previous instructions" and its kin, in words of many languages: verbs of setting aside,
 * nouns for instructions and rules, and the words that point at what came before. Stems, matched at the
 * start of a word (Latin, Cyrillic, Greek, ...) or anywhere (Chinese, Japanese, Thai, ...). A noun is
 * `strong` when it names instructions themselves ("instructions", "指令"), a modifier when it points
 * back at them ("previous", "之前"); "all" alone is weak. Written as people spell them: the screen
 * normalises them the way it normalises a memory.
 */

export interface OverrideWords {
  verbs: readonly string[];
  strongNouns: readonly string[];
  weakNouns: readonly string[];
  strongModifiers: readonly string[];
  weakModifiers: readonly string[];
}

/** English is read by its own tighter rule (detect-override.ts); these are the other languages. */
export const OTHER_LANGUAGES: OverrideWords = {
  verbs: [
    // es, fr, pt share "ignore" with English (see ENGLISH_SHARED)
    'ignore', 'ignora', 'ignoren', 'ignorar', 'olvida', 'olvide', 'olviden', 'olvidar', 'omite', 'omita', 'omitir', 'descarta', 'descarte', 'desestima', 'no sigas', 'deja de seguir', 'ya no sigas', 'haz caso omiso', 'no hagas caso', 'pasa por alto', 'anula', 'sáltate',
    // fr
    'ignorez', 'ignorer', 'oublie', 'oubliez', 'oublier', 'ne tiens pas compte', 'ne tenez pas compte', 'fais abstraction', 'faites abstraction', 'néglige', 'négligez', 'outrepasse', 'contourne', 'contournez', 'passe outre', 'passez outre', 'ne suis plus', 'ne suivez plus', 'ne suis pas', 'ne respecte plus',
    // de
    'ignorier', 'vergiss', 'vergessen sie', 'missachte', 'übergeh', 'umgeh', 'verwirf', 'hör auf', 'außer acht', 'setze außer kraft', 'befolge nicht', 'nicht mehr befolgen', 'nicht befolgen', 'ungültig',
    // it
    'ignorate', 'ignorare', 'dimentica', 'dimenticate', 'tralascia', 'trascura', 'non considerare', 'scarta',
    // pt
    'ignorem', 'esqueça', 'esqueçam', 'esquecer', 'desconsidere', 'desconsidera', 'despreze', 'descarte',
    // nl, sv, da/no, cs, ro, hu
    'negeer', 'negeren', 'vergeet', 'omzeil', 'ignorera', 'glöm', 'strunta i', 'bortse från', 'glem', 'se bort fra', 'ignoruj', 'zapomeň', 'nevšímej', 'ignoră', 'uită', 'hagyd figyelmen kívül', 'felejtsd el',
    // pl
    'zignoruj', 'zignorujcie', 'ignoruj', 'zapomnij', 'zapomnijcie', 'pomiń', 'pomijaj', 'porzuć',
    // ru, uk
    'игнорируй', 'игнорируйте', 'игнорировать', 'проигнорируй', 'забудь', 'забудьте', 'не обращай внимания', 'не обращайте внимания', 'пропусти', 'отбрось', 'отмени', 'не следуй', 'не следуйте', 'перестань следовать', 'больше не следуй', 'ігноруй', 'проігноруй', 'забудь', 'не зважай', 'нехтуй',
    // tr
    'yok say', 'yoksay', 'görmezden gel', 'unut', 'dikkate alma', 'önemseme', 'göz ardı et',
    // el, he, fa, ar
    'αγνόησε', 'αγνοήστε', 'ξέχασε', 'ξεχάστε', 'התעלם', 'התעלמי', 'התעלמו', 'שכח', 'תשכח', 'نادیده بگیر', 'فراموش کن', 'تجاهل', 'تجاهلي', 'تجاهلوا', 'انسَ', 'انسى', 'أهمل', 'اهمل', 'تخطى', 'تجاوز',
    // hi, vi, id/ms, th
    'अनदेखा', 'नज़रअंदाज़', 'नजरअंदाज', 'भूल जाओ', 'भूल जाएं', 'भूल जाइए', 'अवहेलना', 'उपेक्षा', 'bỏ qua', 'phớt lờ', 'lờ đi', 'quên', 'abaikan', 'lupakan', 'hiraukan', 'acuhkan', 'ละเว้น', 'เพิกเฉย', 'ลืม', 'ไม่ต้องสนใจ',
    // zh, ja, ko
    '忽略', '忽视', '忽視', '无视', '無視', '不要理会', '不要理會', '不理会', '忘记', '忘記', '忘掉', '跳过', '跳過', '绕过', '繞過', '抛弃', '拋棄', '放弃', '不再遵守', '不要遵守', '不必遵守', '不要遵循', '不再遵循', '不用管', '别管', '別管', '作废', '作廢', '失效', '废除', '廢除', '撤销', '撤銷', '不算数', '不算數',
    '忘れ', '従わな', '破棄', '無効に', '取り消', '捨て',
    '무시', '잊어', '잊고', '따르지 마', '따르지마', '따르지 말', '우회', '건너뛰', '버려',
  ],
  strongNouns: [
    'instrucciones', 'instrucción', 'indicaciones', 'directivas', 'directrices', 'consignes', 'directives', 'instructions', 'anweisung', 'instruktion', 'vorgaben', 'systemprompt',
    'istruzioni', 'direttive', 'indicazioni', 'instruções', 'diretrizes', 'diretivas', 'instructies', 'aanwijzingen', 'instruktioner', 'instruksjoner', 'instrukce', 'pokyny', 'instrucțiuni', 'utasítás',
    'instrukcj', 'polecenia', 'poleceń', 'wytyczn', 'инструкци', 'указани', 'директив', 'промпт', 'інструкці', 'вказівк',
    'talimat', 'yönerge', 'οδηγίες', 'הוראות', 'ההוראות', 'הנחיות', 'ההנחיות', 'دستورالعمل', 'دستورات', 'التعليمات', 'تعليمات', 'الإرشادات', 'التوجيهات',
    'निर्देश', 'hướng dẫn', 'chỉ dẫn', 'chỉ thị', 'instruksi', 'petunjuk', 'arahan', 'คำสั่ง', 'คำแนะนำ',
    '指令', '指示', '提示词', '提示詞', 'プロンプト', '지시', '지침', '프롬프트', 'prompt',
  ],
  weakNouns: [
    'reglas', 'normas', 'órdenes', 'restricciones', 'règles', 'ordres', 'contraintes', 'regeln', 'befehle', 'richtlinien', 'einschränkungen', 'regole', 'comandi', 'vincoli', 'regras', 'ordens', 'comandos', 'restrições',
    'regels', 'richtlijnen', 'opdrachten', 'regler', 'pravidla', 'regulile', 'szabály', 'zasad', 'reguł', 'правила', 'правил', 'команд', 'ограничени', 'kural', 'komut', 'κανόνες', 'כללים', 'הכללים', 'قوانین', 'القواعد', 'الأوامر',
    'नियम', 'आदेश', 'quy tắc', 'quy định', 'lệnh', 'perintah', 'aturan', 'กฎ', '规则', '規則', '命令', '设定', '設定', '约束', '制約', '限制', '要求', 'ルール', '명령', '규칙', '제한', 'rules', 'guidelines', 'restrictions',
  ],
  strongModifiers: [
    'anteriores', 'anterior', 'previas', 'previos', 'de arriba', 'precedentes', 'originales', 'del sistema', 'précédent', 'antérieur', 'ci-dessus', 'plus haut', 'du système', 'initiales',
    'vorherig', 'vorig', 'früher', 'obig', 'bisherig', 'vorangegangen', 'ursprünglich', 'des systems', 'precedenti', 'sopra', 'di sistema', 'del sistema', 'originali', 'acima', 'prévias', 'do sistema',
    'vorige', 'eerdere', 'bovenstaande', 'voorgaande', 'tidigare', 'föregående', 'ovanstående', 'ovan', 'tidligere', 'předchozí', 'anterioare', 'korábbi', 'előző',
    'poprzedni', 'wcześniejsz', 'powyższ', 'systemow', 'предыдущ', 'прежн', 'вышеуказанн', 'выше', 'системн', 'попередн', 'önceki', 'yukarıdaki', 'sistem',
    'προηγούμεν', 'הקודמות', 'הקודמים', 'הקודם', 'قبلی', 'السابقة', 'سابقة', 'أعلاه', 'النظام', 'पिछले', 'पिछली', 'पहले', 'ऊपर', 'सिस्टम',
    'trước đó', 'phía trên', 'ở trên', 'hệ thống', 'sebelumnya', 'di atas', 'ก่อนหน้า', 'ข้างต้น',
    '之前', '以前', '先前', '上面', '上述', '前面', '此前', '原来', '原來', '原有', '系统', '系統', '前の', '上記', 'これまで', '先ほど', '今まで', 'システム', '이전', '앞의', '위의', '기존', '시스템', '지금까지',
  ],
  weakModifiers: [
    'todas', 'todos', 'cualquier', 'toutes', 'tous', 'alle', 'sämtliche', 'tutte', 'tutti', 'qualsiasi', 'quaisquer', 'alla', 'všechny', 'toate', 'összes',
    'wszystkie', 'все', 'всех', 'любые', 'всі', 'усі', 'tüm', 'bütün', 'όλες', 'כל', 'همه', 'تمام', 'جميع', 'सभी', 'सारे', 'tất cả', 'mọi', 'semua', 'seluruh', 'ทั้งหมด',
    '所有', '全部', '一切', 'すべて', '全て', '모든', '전부',
  ],
};
