// The demo providers' texts in Spanish, Portuguese and Vietnamese (their default language is English).
// The seed stores a text in its column and, through `texts()`, the other languages in the row's
// translations column (server/providerTexts.ts). Every text the seed marks translatable must be here,
// so a demo page in another language never falls back to English.
import type { ProviderTexts } from '../providerTexts';

type Row = [en: string, es: string, pt: string, vi: string];

const ROWS: Row[] = [
  // relationships
  ['Mother', 'Madre', 'Mãe', 'Mẹ'],
  ['Father', 'Padre', 'Pai', 'Cha'],
  ['Stepmother', 'Madrastra', 'Madrasta', 'Mẹ kế'],
  ['Stepfather', 'Padrastro', 'Padrasto', 'Cha dượng'],
  ['Grandmother', 'Abuela', 'Avó', 'Bà'],
  ['Grandfather', 'Abuelo', 'Avô', 'Ông'],
  ['Aunt', 'Tía', 'Tia', 'Cô/Dì'],
  ['Uncle', 'Tío', 'Tio', 'Chú/Bác'],
  ['Sibling', 'Hermano o hermana', 'Irmão ou irmã', 'Anh chị em ruột'],
  ['Guardian', 'Tutor legal', 'Tutor legal', 'Người giám hộ'],
  ['Family friend', 'Amigo de la familia', 'Amigo da família', 'Bạn của gia đình'],
  ['Other', 'Otro', 'Outro', 'Khác'],
  // grade levels
  ['Pre-Kindergarten', 'Prekínder', 'Pré-escola', 'Mẫu giáo nhỡ'],
  ['Kindergarten', 'Kínder', 'Jardim de infância', 'Mẫu giáo lớn'],
  ['1st Grade', '1.er grado', '1º ano', 'Lớp 1'],
  ['2nd Grade', '2.º grado', '2º ano', 'Lớp 2'],
  ['3rd Grade', '3.er grado', '3º ano', 'Lớp 3'],
  ['4th Grade', '4.º grado', '4º ano', 'Lớp 4'],
  ['5th Grade', '5.º grado', '5º ano', 'Lớp 5'],
  ['6th Grade', '6.º grado', '6º ano', 'Lớp 6'],
  ['Grade 1', '1.er grado', '1º ano', 'Lớp 1'],
  ['Grade 2', '2.º grado', '2º ano', 'Lớp 2'],
  ['Grade 3', '3.er grado', '3º ano', 'Lớp 3'],
  ['Grade 4', '4.º grado', '4º ano', 'Lớp 4'],
  ['Grade 5', '5.º grado', '5º ano', 'Lớp 5'],
  ['Grade 6', '6.º grado', '6º ano', 'Lớp 6'],
  // absence reasons
  ['Sick', 'Enfermedad', 'Doença', 'Bị ốm'],
  ['Medical appointment', 'Cita médica', 'Consulta médica', 'Lịch hẹn khám bệnh'],
  ['Family vacation', 'Vacaciones familiares', 'Férias em família', 'Gia đình đi nghỉ'],
  ['Picked up early by parent', 'Recogido temprano por el padre o la madre', 'Buscado mais cedo pelos pais', 'Phụ huynh đón sớm'],
  ['Staff use only: no-show', 'Solo para el personal: no se presentó', 'Uso exclusivo da equipe: não compareceu', 'Chỉ dành cho nhân viên: vắng mặt không báo'],
  ['Illness', 'Enfermedad', 'Doença', 'Bị ốm'],
  ['Appointment', 'Cita', 'Consulta', 'Lịch hẹn'],
  ['Family travel', 'Viaje familiar', 'Viagem em família', 'Gia đình đi du lịch'],
  // user-defined fields and their options
  ['Pickup password', 'Contraseña para recoger', 'Senha de retirada', 'Mật khẩu đón trẻ'],
  ['Volunteer T-shirt size', 'Talla de camiseta de voluntario', 'Tamanho da camiseta de voluntário', 'Cỡ áo thun tình nguyện viên'],
  ['Small', 'Pequeña', 'Pequeno', 'Nhỏ'],
  ['Medium', 'Mediana', 'Médio', 'Vừa'],
  ['Large', 'Grande', 'Grande', 'Lớn'],
  ['Would you like to volunteer?', '¿Le gustaría ser voluntario?', 'Gostaria de ser voluntário?', 'Quý vị có muốn làm tình nguyện viên không?'],
  ['Date of last physical', 'Fecha del último examen físico', 'Data do último exame físico', 'Ngày khám sức khỏe gần nhất'],
  ['Photos may be used in the newsletter', 'Las fotos pueden usarse en el boletín informativo', 'As fotos podem ser usadas no boletim informativo', 'Ảnh có thể được dùng trong bản tin'],
  ['Anything we should know', 'Algo que debamos saber', 'Algo que devemos saber', 'Điều chúng tôi nên biết'],
  ['Preferred name', 'Nombre preferido', 'Nome preferido', 'Tên thường gọi'],
  // medical questions and their standard values
  ['Does your child have any allergies?', '¿Su hijo tiene alguna alergia?', 'Seu filho tem alguma alergia?', 'Con quý vị có bị dị ứng gì không?'],
  ['Tell us about every allergy, including reactions to foods served at snack time.', 'Cuéntenos sobre cada alergia, incluidas las reacciones a los alimentos que se sirven en la merienda.', 'Conte-nos sobre cada alergia, inclusive reações a alimentos servidos no lanche.', 'Vui lòng cho chúng tôi biết mọi loại dị ứng, kể cả phản ứng với đồ ăn trong giờ ăn nhẹ.'],
  ['Peanuts', 'Cacahuates', 'Amendoim', 'Đậu phộng'],
  ['Tree nuts', 'Frutos secos', 'Castanhas', 'Các loại hạt'],
  ['Milk', 'Leche', 'Leite', 'Sữa'],
  ['Eggs', 'Huevos', 'Ovos', 'Trứng'],
  ['Bee stings', 'Picaduras de abeja', 'Picadas de abelha', 'Ong đốt'],
  ['Does your child have a disability?', '¿Su hijo tiene alguna discapacidad?', 'Seu filho tem alguma deficiência?', 'Con quý vị có khuyết tật không?'],
  ['Hearing', 'Auditiva', 'Auditiva', 'Khiếm thính'],
  ['Vision', 'Visual', 'Visual', 'Khiếm thị'],
  ['Mobility', 'Movilidad', 'Mobilidade', 'Vận động'],
  ['Learning', 'Aprendizaje', 'Aprendizagem', 'Học tập'],
  ['Does your child have a medical condition?', '¿Su hijo tiene alguna afección médica?', 'Seu filho tem alguma condição médica?', 'Con quý vị có bệnh lý nào không?'],
  ['Asthma', 'Asma', 'Asma', 'Hen suyễn'],
  ['Diabetes', 'Diabetes', 'Diabetes', 'Tiểu đường'],
  ['Epilepsy', 'Epilepsia', 'Epilepsia', 'Động kinh'],
  ['Heart condition', 'Afección cardíaca', 'Problema cardíaco', 'Bệnh tim'],
  ['Does your child have special needs?', '¿Su hijo tiene necesidades especiales?', 'Seu filho tem necessidades especiais?', 'Con quý vị có nhu cầu đặc biệt không?'],
  ['Does your child take any medication?', '¿Su hijo toma algún medicamento?', 'Seu filho toma algum medicamento?', 'Con quý vị có đang dùng thuốc không?'],
  ['Inhaler', 'Inhalador', 'Inalador', 'Ống hít'],
  ['EpiPen', 'Autoinyector de epinefrina (EpiPen)', 'Autoinjetor de epinefrina (EpiPen)', 'Bút tiêm epinephrine (EpiPen)'],
  ['Insulin', 'Insulina', 'Insulina', 'Insulin'],
  ['Antihistamine', 'Antihistamínico', 'Anti-histamínico', 'Thuốc kháng histamin'],
  // short master-data lists (spec 7.2): gender, marital status, primary language, meal eligibility,
  // T-shirt size, transportation mode
  ['Female', 'Femenino', 'Feminino', 'Nữ'],
  ['Male', 'Masculino', 'Masculino', 'Nam'],
  ['Prefer not to say', 'Prefiero no decirlo', 'Prefiro não dizer', 'Không muốn nói'],
  ['Single', 'Soltero/a', 'Solteiro/a', 'Độc thân'],
  ['Married', 'Casado/a', 'Casado/a', 'Đã kết hôn'],
  ['Domestic partnership', 'Unión de hecho', 'União estável', 'Sống chung có đăng ký'],
  ['Separated', 'Separado/a', 'Separado/a', 'Ly thân'],
  ['Divorced', 'Divorciado/a', 'Divorciado/a', 'Đã ly hôn'],
  ['Widowed', 'Viudo/a', 'Viúvo/a', 'Góa'],
  ['English', 'Inglés', 'Inglês', 'Tiếng Anh'],
  ['Spanish', 'Español', 'Espanhol', 'Tiếng Tây Ban Nha'],
  ['Portuguese', 'Portugués', 'Português', 'Tiếng Bồ Đào Nha'],
  ['Vietnamese', 'Vietnamita', 'Vietnamita', 'Tiếng Việt'],
  ['French', 'Francés', 'Francês', 'Tiếng Pháp'],
  ['Chinese', 'Chino', 'Chinês', 'Tiếng Trung'],
  ['Free meals', 'Comidas gratuitas', 'Refeições gratuitas', 'Bữa ăn miễn phí'],
  ['Reduced-price meals', 'Comidas a precio reducido', 'Refeições a preço reduzido', 'Bữa ăn giảm giá'],
  ['Full-price meals', 'Comidas a precio completo', 'Refeições a preço integral', 'Bữa ăn giá đầy đủ'],
  ['Not applying', 'No solicita', 'Não solicitado', 'Không đăng ký'],
  ['Youth Small', 'Juvenil pequeña', 'Infantil pequeno', 'Cỡ trẻ em nhỏ'],
  ['Youth Medium', 'Juvenil mediana', 'Infantil médio', 'Cỡ trẻ em vừa'],
  ['Youth Large', 'Juvenil grande', 'Infantil grande', 'Cỡ trẻ em lớn'],
  ['Adult Small', 'Adulto pequeña', 'Adulto pequeno', 'Cỡ người lớn nhỏ'],
  ['Adult Medium', 'Adulto mediana', 'Adulto médio', 'Cỡ người lớn vừa'],
  ['Adult Large', 'Adulto grande', 'Adulto grande', 'Cỡ người lớn lớn'],
  ['Parent drop-off and pick-up', 'El padre o la madre lo lleva y lo recoge', 'Os pais levam e buscam', 'Phụ huynh đưa đón'],
  ['School bus', 'Autobús escolar', 'Ônibus escolar', 'Xe buýt trường học'],
  ['Walks', 'Camina', 'Vai a pé', 'Đi bộ'],
  ['Bicycle', 'Bicicleta', 'Bicicleta', 'Xe đạp'],
  ['Public transit', 'Transporte público', 'Transporte público', 'Phương tiện công cộng'],
  // contact-us subjects (spec 7.4 Subjects)
  ['Billing question', 'Pregunta sobre facturación', 'Dúvida sobre cobrança', 'Câu hỏi về thanh toán'],
  ['Schedule change', 'Cambio de horario', 'Mudança de horário', 'Thay đổi lịch'],
  ['Absence or late pick-up', 'Ausencia o recogida tardía', 'Falta ou retirada atrasada', 'Vắng mặt hoặc đón muộn'],
  ['Update my information', 'Actualizar mis datos', 'Atualizar meus dados', 'Cập nhật thông tin của tôi'],
  ['Something else', 'Otro asunto', 'Outro assunto', 'Việc khác'],
  ['Registration question', 'Pregunta sobre la inscripción', 'Dúvida sobre inscrição', 'Câu hỏi về đăng ký'],
  ['School district transportation', 'Transporte del distrito escolar', 'Transporte do distrito escolar', 'Đưa đón của khu học chánh'],
  // custom texts (spec 7.1 autopay terms, 7.4 prepare-onscreen)
  ['<p>I, {{AdultName}}, authorize {{ProgramName}} to charge the payment method on file for the fees of account {{AccountNo}} on each due date, until I cancel in the parent portal.</p><p>Questions: {{SupportPhone}}.</p>', '<p>Yo, {{AdultName}}, autorizo a {{ProgramName}} a cobrar con el método de pago registrado las cuotas de la cuenta {{AccountNo}} en cada fecha de vencimiento, hasta que lo cancele en el portal para padres.</p><p>Preguntas: {{SupportPhone}}.</p>', '<p>Eu, {{AdultName}}, autorizo {{ProgramName}} a cobrar no meio de pagamento cadastrado as taxas da conta {{AccountNo}} em cada data de vencimento, até que eu cancele no portal dos pais.</p><p>Dúvidas: {{SupportPhone}}.</p>', '<p>Tôi, {{AdultName}}, cho phép {{ProgramName}} trừ tiền vào phương thức thanh toán đã lưu cho các khoản phí của tài khoản {{AccountNo}} vào mỗi ngày đến hạn, cho đến khi tôi hủy trong cổng thông tin phụ huynh.</p><p>Thắc mắc: {{SupportPhone}}.</p>'],
  ['<p>Payments are refundable within 10 days when the care was not used. Registration fees are not refundable. Refunds go back to the card or bank account that paid and start within one business day.</p>', '<p>Los pagos se reembolsan dentro de los 10 días cuando no se usó el cuidado. Las cuotas de inscripción no son reembolsables. Los reembolsos vuelven a la tarjeta o cuenta bancaria que pagó y comienzan en un día hábil.</p>', '<p>Os pagamentos são reembolsáveis em até 10 dias quando o atendimento não foi usado. As taxas de inscrição não são reembolsáveis. Os reembolsos voltam para o cartão ou a conta bancária que pagou e começam em um dia útil.</p>', '<p>Khoản thanh toán được hoàn lại trong vòng 10 ngày nếu dịch vụ chăm sóc chưa được sử dụng. Phí ghi danh không được hoàn lại. Tiền hoàn lại được trả về thẻ hoặc tài khoản ngân hàng đã thanh toán và bắt đầu trong vòng một ngày làm việc.</p>'],
  ['<p>Write to us about anything: we answer within two business days. For an absence today, call {{SupportPhone}}.</p>', '<p>Escríbanos sobre cualquier tema: respondemos en dos días hábiles. Para una ausencia de hoy, llame al {{SupportPhone}}.</p>', '<p>Escreva-nos sobre qualquer assunto: respondemos em dois dias úteis. Para uma falta hoje, ligue para {{SupportPhone}}.</p>', '<p>Hãy viết cho chúng tôi về bất cứ điều gì: chúng tôi trả lời trong vòng hai ngày làm việc. Nếu vắng mặt hôm nay, vui lòng gọi {{SupportPhone}}.</p>'],
  // program titles (spec 2.8) and descriptions: Bright Path
  ['School Year Before & After Care', 'Cuidado antes y después de clases del año escolar', 'Cuidado antes e depois da escola - ano letivo', 'Chăm sóc trước và sau giờ học năm học'],
  ['Safe, fun mornings and afternoons at your school: homework help, outdoor play and healthy snacks.', 'Mañanas y tardes seguras y divertidas en su escuela: ayuda con las tareas, juego al aire libre y meriendas saludables.', 'Manhãs e tardes seguras e divertidas na sua escola: ajuda com a lição de casa, brincadeiras ao ar livre e lanches saudáveis.', 'Buổi sáng và buổi chiều an toàn, vui vẻ tại trường: hỗ trợ làm bài tập, vui chơi ngoài trời và bữa ăn nhẹ lành mạnh.'],
  ['Summer Adventure Camp', 'Campamento de verano Aventura', 'Acampamento de verão Aventura', 'Trại hè Phiêu lưu'],
  ['Ten weeks of field trips, swimming, science and art. Choose the weeks that fit your family.', 'Diez semanas de excursiones, natación, ciencias y arte. Elija las semanas que le convengan a su familia.', 'Dez semanas de passeios, natação, ciências e arte. Escolha as semanas que combinam com sua família.', 'Mười tuần dã ngoại, bơi lội, khoa học và nghệ thuật. Hãy chọn những tuần phù hợp với gia đình quý vị.'],
  ['Little Sprouts Preschool', 'Preescolar Little Sprouts', 'Pré-escola Little Sprouts', 'Mầm non Little Sprouts'],
  ['Play-based preschool for ages 3 to 5 at our downtown center.', 'Preescolar basado en el juego para niños de 3 a 5 años en nuestro centro del centro de la ciudad.', 'Pré-escola baseada em brincadeiras para crianças de 3 a 5 anos no nosso centro no centro da cidade.', 'Chương trình mầm non học qua chơi cho trẻ từ 3 đến 5 tuổi tại trung tâm ở khu trung tâm thành phố.'],
  ['Winter Break Holiday Care', 'Cuidado durante las vacaciones de invierno', 'Cuidado nas férias de inverno', 'Chăm sóc kỳ nghỉ đông'],
  ['Full-day care while schools are closed for winter break.', 'Cuidado de día completo mientras las escuelas cierran por las vacaciones de invierno.', 'Cuidado em período integral enquanto as escolas estão fechadas nas férias de inverno.', 'Chăm sóc cả ngày trong thời gian trường nghỉ đông.'],
  ['Robotics & Art Studio', 'Estudio de robótica y arte', 'Estúdio de robótica e arte', 'Xưởng Robot & Nghệ thuật'],
  ['After-school enrichment: build robots on Tuesdays, paint and sculpt on Thursdays.', 'Actividades extracurriculares: construir robots los martes, pintar y esculpir los jueves.', 'Atividades extracurriculares: montar robôs às terças, pintar e esculpir às quintas.', 'Hoạt động ngoại khóa sau giờ học: lắp ráp robot vào thứ Ba, vẽ và nặn tượng vào thứ Năm.'],
  ['Fall Soccer Clinic', 'Clínica de fútbol de otoño', 'Clínica de futebol de outono', 'Lớp bóng đá mùa thu'],
  ['Spring Break Adventure', 'Aventura de vacaciones de primavera', 'Aventura das férias de primavera', 'Phiêu lưu kỳ nghỉ xuân'],
  ['A week of day trips and games while schools are closed for spring break.', 'Una semana de excursiones y juegos mientras las escuelas cierran por las vacaciones de primavera.', 'Uma semana de passeios e jogos enquanto as escolas estão fechadas nas férias de primavera.', 'Một tuần đi chơi trong ngày và trò chơi khi trường nghỉ xuân.'],
  ['Fall Art Workshop', 'Taller de arte de otoño', 'Oficina de arte de outono', 'Lớp mỹ thuật mùa thu'],
  ['Four Saturday mornings of painting and clay.', 'Cuatro sábados por la mañana de pintura y arcilla.', 'Quatro manhãs de sábado de pintura e argila.', 'Bốn buổi sáng thứ Bảy vẽ tranh và nặn đất sét.'],
  ['Six-week soccer skills clinic.', 'Clínica de habilidades de fútbol de seis semanas.', 'Clínica de habilidades de futebol de seis semanas.', 'Lớp kỹ năng bóng đá kéo dài sáu tuần.'],
  ['Drop-in Punch Pass', 'Pase de asistencia ocasional', 'Passe avulso', 'Thẻ gửi trẻ theo buổi'],
  ['Buy a 10-visit pass and drop in on the days you need.', 'Compre un pase de 10 visitas y venga los días que lo necesite.', 'Compre um passe de 10 visitas e venha nos dias em que precisar.', 'Mua thẻ 10 buổi và gửi trẻ vào những ngày quý vị cần.'],
  ['Riverside District Summer Academy', 'Academia de verano del distrito Riverside', 'Academia de verão do distrito Riverside', 'Học viện hè khu Riverside'],
  ['Summer academy run with the neighbouring Riverside district.', 'Academia de verano organizada junto con el distrito vecino de Riverside.', 'Academia de verão realizada com o distrito vizinho de Riverside.', 'Học viện hè được tổ chức cùng khu học chánh Riverside lân cận.'],
  // program titles and descriptions: Northridge
  ['Extended Day Before & After School', 'Jornada extendida antes y después de clases', 'Período estendido antes e depois da escola', 'Chăm sóc ngoài giờ trước và sau giờ học'],
  ['Before and after school care at district schools.', 'Cuidado antes y después de clases en las escuelas del distrito.', 'Cuidado antes e depois da escola nas escolas do distrito.', 'Chăm sóc trước và sau giờ học tại các trường trong khu học chánh.'],
  ['Summer Day Camp', 'Campamento diurno de verano', 'Acampamento diurno de verão', 'Trại hè ban ngày'],
  ['Weekly summer day camp at Maple Grove School.', 'Campamento diurno de verano por semanas en Maple Grove School.', 'Acampamento diurno de verão semanal na Maple Grove School.', 'Trại hè ban ngày theo tuần tại trường Maple Grove.'],
  ['Kindergarten Readiness', 'Preparación para el kínder', 'Preparação para o jardim de infância', 'Chuẩn bị vào mẫu giáo'],
  ['Half-day preschool program for four-year-olds.', 'Programa preescolar de medio día para niños de cuatro años.', 'Programa pré-escolar de meio período para crianças de quatro anos.', 'Chương trình mầm non nửa ngày cho trẻ bốn tuổi.'],
  ['Spring Break Care', 'Cuidado en vacaciones de primavera', 'Cuidado nas férias de primavera', 'Chăm sóc kỳ nghỉ xuân'],
  ['Full-day care during spring break.', 'Cuidado de día completo durante las vacaciones de primavera.', 'Cuidado em período integral durante as férias de primavera.', 'Chăm sóc cả ngày trong kỳ nghỉ xuân.'],
  ['Chess & Coding Club', 'Club de ajedrez y programación', 'Clube de xadrez e programação', 'Câu lạc bộ Cờ vua & Lập trình'],
  ['Lunchtime and after-school enrichment club.', 'Club de enriquecimiento a la hora del almuerzo y después de clases.', 'Clube de atividades na hora do almoço e depois da escola.', 'Câu lạc bộ ngoại khóa giờ trưa và sau giờ học.'],
  // bulletins: Bright Path
  ['Winter Break Holiday Care registration', 'Inscripción para el cuidado durante las vacaciones de invierno', 'Inscrição para o cuidado nas férias de inverno', 'Đăng ký chăm sóc kỳ nghỉ đông'],
  ['<p>Registration for <strong>Winter Break Holiday Care</strong> opens soon. Spaces are limited, so register early.</p><p>See the attached schedule for details.</p>', '<p>La inscripción para el <strong>cuidado durante las vacaciones de invierno</strong> abre pronto. Los cupos son limitados, así que inscríbase con anticipación.</p><p>Consulte el horario adjunto para más detalles.</p>', '<p>As inscrições para o <strong>cuidado nas férias de inverno</strong> abrem em breve. As vagas são limitadas, então inscreva-se cedo.</p><p>Veja o horário anexo para mais detalhes.</p>', '<p>Việc đăng ký <strong>chăm sóc kỳ nghỉ đông</strong> sắp mở. Số chỗ có hạn, vì vậy hãy đăng ký sớm.</p><p>Xem lịch đính kèm để biết chi tiết.</p>'],
  ['Spirit Week and supply list', 'Semana del espíritu escolar y lista de útiles', 'Semana do espírito escolar e lista de materiais', 'Tuần lễ tinh thần và danh sách đồ dùng'],
  ['<p>Next week is <em>Spirit Week</em>! Monday is pajama day, Wednesday is crazy hair day and Friday is team colors day.</p><ul><li>Label all clothing</li><li>Bring a refillable water bottle</li></ul>', '<p>¡La próxima semana es la <em>Semana del espíritu escolar</em>! El lunes es el día de pijamas, el miércoles el día del peinado loco y el viernes el día de los colores del equipo.</p><ul><li>Marque toda la ropa con el nombre</li><li>Traiga una botella de agua reutilizable</li></ul>', '<p>Na próxima semana é a <em>Semana do espírito escolar</em>! Segunda-feira é o dia do pijama, quarta-feira o dia do cabelo maluco e sexta-feira o dia das cores do time.</p><ul><li>Identifique todas as roupas com o nome</li><li>Traga uma garrafa de água reutilizável</li></ul>', '<p>Tuần sau là <em>Tuần lễ tinh thần</em>! Thứ Hai là ngày mặc đồ ngủ, thứ Tư là ngày tóc ngộ nghĩnh và thứ Sáu là ngày mặc màu đội.</p><ul><li>Ghi tên lên tất cả quần áo</li><li>Mang theo bình nước dùng lại được</li></ul>'],
  ['Welcome to the new school year', 'Bienvenidos al nuevo año escolar', 'Bem-vindos ao novo ano letivo', 'Chào mừng năm học mới'],
  ['<p>Welcome back, families! Our staff are excited for a great year at every site.</p>', '<p>¡Bienvenidas de nuevo, familias! Nuestro personal está entusiasmado por un gran año en cada centro.</p>', '<p>Bem-vindas de volta, famílias! Nossa equipe está animada para um ótimo ano em cada unidade.</p>', '<p>Chào mừng các gia đình trở lại! Đội ngũ nhân viên của chúng tôi rất háo hức cho một năm tuyệt vời tại mọi cơ sở.</p>'],
  ['Expired: summer photos', 'Vencido: fotos del verano', 'Expirado: fotos do verão', 'Đã hết hạn: ảnh mùa hè'],
  ['<p>Summer photos were available until last month.</p>', '<p>Las fotos del verano estuvieron disponibles hasta el mes pasado.</p>', '<p>As fotos do verão ficaram disponíveis até o mês passado.</p>', '<p>Ảnh mùa hè đã có sẵn đến tháng trước.</p>'],
  // bulletins: Northridge
  ['Cold weather reminder', 'Recordatorio por el clima frío', 'Lembrete sobre o tempo frio', 'Nhắc nhở về thời tiết lạnh'],
  ['<p>Outdoor play continues down to <strong>-20 °C</strong> with wind chill. Please send warm layers, mitts and a toque.</p>', '<p>El juego al aire libre continúa hasta <strong>-20 °C</strong> con sensación térmica. Envíe ropa abrigada en capas, manoplas y un gorro.</p>', '<p>As brincadeiras ao ar livre continuam até <strong>-20 °C</strong> de sensação térmica. Envie roupas quentes em camadas, luvas e um gorro.</p>', '<p>Trẻ vẫn chơi ngoài trời đến <strong>-20 °C</strong> tính cả gió lạnh. Vui lòng cho trẻ mặc nhiều lớp áo ấm, găng tay và mũ len.</p>'],
  ['Professional development day', 'Día de desarrollo profesional', 'Dia de desenvolvimento profissional', 'Ngày bồi dưỡng chuyên môn'],
  ['<p>Extended Day is open all day on the upcoming PD day at Maple Grove School.</p>', '<p>La jornada extendida abre todo el día en el próximo día de desarrollo profesional en Maple Grove School.</p>', '<p>O período estendido funciona o dia todo no próximo dia de desenvolvimento profissional na Maple Grove School.</p>', '<p>Chương trình chăm sóc ngoài giờ mở cửa cả ngày vào ngày bồi dưỡng chuyên môn sắp tới tại trường Maple Grove.</p>'],
  // forms
  ['Medication Authorization Form', 'Formulario de autorización de medicamentos', 'Formulário de autorização de medicamentos', 'Mẫu cho phép dùng thuốc'],
  ['Field Trip Permission Slip', 'Permiso para excursiones', 'Autorização para passeios', 'Giấy cho phép đi dã ngoại'],
  ['Parent Handbook Summary', 'Resumen del manual para padres', 'Resumo do manual dos pais', 'Tóm tắt sổ tay phụ huynh'],
  ['Extended Day Registration Package', 'Paquete de inscripción de la jornada extendida', 'Pacote de inscrição do período estendido', 'Bộ hồ sơ đăng ký chăm sóc ngoài giờ'],
  ['Anaphylaxis Emergency Plan', 'Plan de emergencia para anafilaxia', 'Plano de emergência para anafilaxia', 'Kế hoạch cấp cứu sốc phản vệ'],
  // calendar events: Bright Path
  ['Family Game Night', 'Noche de juegos en familia', 'Noite de jogos em família', 'Đêm trò chơi gia đình'],
  ['Board games and pizza at Lincoln Elementary gym.', 'Juegos de mesa y pizza en el gimnasio de Lincoln Elementary.', 'Jogos de tabuleiro e pizza no ginásio da Lincoln Elementary.', 'Trò chơi cờ bàn và pizza tại phòng thể dục trường Lincoln Elementary.'],
  ['Spirit Week', 'Semana del espíritu escolar', 'Semana do espírito escolar', 'Tuần lễ tinh thần'],
  ['Dress-up days all week (see the bulletin).', 'Días de disfraces toda la semana (vea el boletín).', 'Dias de fantasia a semana toda (veja o boletim).', 'Các ngày hóa trang suốt tuần (xem bản tin).'],
  ['No school - Staff development day (full-day care available)', 'Sin clases - Día de capacitación del personal (cuidado de día completo disponible)', 'Sem aula - Dia de capacitação da equipe (cuidado em período integral disponível)', 'Nghỉ học - Ngày bồi dưỡng nhân viên (có chăm sóc cả ngày)'],
  ['Full-day care at the Downtown center; register for the day.', 'Cuidado de día completo en el centro Downtown; inscríbase para ese día.', 'Cuidado em período integral no centro Downtown; inscreva-se para o dia.', 'Chăm sóc cả ngày tại trung tâm Downtown; hãy đăng ký cho ngày đó.'],
  ['Science Fair Showcase', 'Exhibición de la feria de ciencias', 'Mostra da feira de ciências', 'Triển lãm hội chợ khoa học'],
  ['Robotics Club projects on display.', 'Exhibición de los proyectos del club de robótica.', 'Projetos do clube de robótica em exposição.', 'Trưng bày các dự án của câu lạc bộ Robot.'],
  ['Holiday care at the Downtown center.', 'Cuidado en vacaciones en el centro Downtown.', 'Cuidado nas férias no centro Downtown.', 'Chăm sóc kỳ nghỉ tại trung tâm Downtown.'],
  ['Parent conferences', 'Reuniones de padres', 'Reuniões de pais', 'Họp phụ huynh'],
  ['Meet your site director.', 'Conozca al director de su centro.', 'Conheça o diretor da sua unidade.', 'Gặp giám đốc cơ sở của quý vị.'],
  // calendar events: Northridge
  ['Professional development day - full-day care', 'Día de desarrollo profesional - cuidado de día completo', 'Dia de desenvolvimento profissional - cuidado em período integral', 'Ngày bồi dưỡng chuyên môn - chăm sóc cả ngày'],
  ['Full-day care at Maple Grove School.', 'Cuidado de día completo en Maple Grove School.', 'Cuidado em período integral na Maple Grove School.', 'Chăm sóc cả ngày tại trường Maple Grove.'],
  ['Family skate night', 'Noche de patinaje en familia', 'Noite de patinação em família', 'Đêm trượt băng gia đình'],
  ['Community rink beside Northridge Elementary.', 'Pista comunitaria junto a Northridge Elementary.', 'Pista comunitária ao lado da Northridge Elementary.', 'Sân trượt băng cộng đồng cạnh trường Northridge Elementary.'],
  ['Registration required.', 'Se requiere inscripción.', 'Inscrição obrigatória.', 'Cần đăng ký trước.'],
  // program alerts
  ['<p><strong>Winter Break Holiday Care</strong> registration opens soon. Sign in to reserve your days.</p>', '<p>La inscripción para el <strong>cuidado durante las vacaciones de invierno</strong> abre pronto. Inicie sesión para reservar sus días.</p>', '<p>As inscrições para o <strong>cuidado nas férias de inverno</strong> abrem em breve. Entre para reservar seus dias.</p>', '<p>Việc đăng ký <strong>chăm sóc kỳ nghỉ đông</strong> sắp mở. Hãy đăng nhập để giữ chỗ cho những ngày quý vị cần.</p>'],
  ['<p>Picture day is <strong>next Thursday</strong> at all school sites.</p>', '<p>El día de fotos es <strong>el próximo jueves</strong> en todas las escuelas.</p>', '<p>O dia da foto é <strong>na próxima quinta-feira</strong> em todas as escolas.</p>', '<p>Ngày chụp ảnh là <strong>thứ Năm tuần sau</strong> tại tất cả các trường.</p>'],
  ['<p>Reminder: late pick-up after 6:00 PM is charged per minute. Thank you for picking up on time!</p>', '<p>Recordatorio: recoger después de las 6:00 p. m. tiene un cargo por minuto. ¡Gracias por recoger a tiempo!</p>', '<p>Lembrete: buscar depois das 18h é cobrado por minuto. Obrigado por buscar no horário!</p>', '<p>Nhắc nhở: đón trẻ sau 6:00 chiều sẽ bị tính phí theo phút. Cảm ơn quý vị đã đón trẻ đúng giờ!</p>'],
  ['<p>Old alert that has ended.</p>', '<p>Aviso antiguo que ya terminó.</p>', '<p>Aviso antigo que já terminou.</p>', '<p>Thông báo cũ đã kết thúc.</p>'],
  ['<p>Spring Break Care registration is open. Spaces are limited.</p>', '<p>La inscripción para el cuidado en vacaciones de primavera está abierta. Los cupos son limitados.</p>', '<p>As inscrições para o cuidado nas férias de primavera estão abertas. As vagas são limitadas.</p>', '<p>Đã mở đăng ký chăm sóc kỳ nghỉ xuân. Số chỗ có hạn.</p>'],
  ['<p><strong>Extreme cold:</strong> outdoor play may be replaced by gym time this week.</p>', '<p><strong>Frío extremo:</strong> esta semana el juego al aire libre puede reemplazarse por tiempo en el gimnasio.</p>', '<p><strong>Frio extremo:</strong> nesta semana as brincadeiras ao ar livre podem ser substituídas por atividades no ginásio.</p>', '<p><strong>Rét đậm:</strong> tuần này giờ chơi ngoài trời có thể được thay bằng giờ chơi trong phòng thể dục.</p>'],
  // sites (school names are proper names and stay as they are)
  ['Lincoln Elementary', 'Lincoln Elementary', 'Lincoln Elementary', 'Lincoln Elementary'],
  ['Washington Elementary', 'Washington Elementary', 'Washington Elementary', 'Washington Elementary'],
  ['Bright Path Center - Downtown', 'Bright Path - Centro de la ciudad', 'Bright Path - Centro da cidade', 'Bright Path - Trung tâm thành phố'],
  ['Northridge Elementary', 'Northridge Elementary', 'Northridge Elementary', 'Northridge Elementary'],
  ['Maple Grove School', 'Maple Grove School', 'Maple Grove School', 'Maple Grove School'],
  // activities: Bright Path
  ['Before Care', 'Cuidado antes de clases', 'Cuidado antes da aula', 'Chăm sóc trước giờ học'],
  ['After Care', 'Cuidado después de clases', 'Cuidado depois da aula', 'Chăm sóc sau giờ học'],
  ['Early Release Day', 'Día de salida temprana', 'Dia de saída antecipada', 'Ngày tan học sớm'],
  ['No-School Day Camp', 'Campamento de día sin clases', 'Acampamento em dia sem aula', 'Trại ngày nghỉ học'],
  ['Maker Lab Flex Day', 'Día flexible del taller Maker', 'Dia flexível do laboratório Maker', 'Ngày linh hoạt phòng Maker'],
  ['Staff training day (no Maker Lab)', 'Día de capacitación del personal (sin taller Maker)', 'Dia de treinamento da equipe (sem laboratório Maker)', 'Ngày tập huấn nhân viên (không có phòng Maker)'],
  ['Adventure Week', 'Semana de aventura', 'Semana de aventura', 'Tuần phiêu lưu'],
  ['Swim & Splash', 'Natación y juegos de agua', 'Natação e brincadeiras na água', 'Bơi lội và vui chơi dưới nước'],
  ['Preschool Full Day', 'Preescolar de día completo', 'Pré-escola em período integral', 'Mầm non cả ngày'],
  ['Holiday Full Day', 'Día festivo completo', 'Dia inteiro de feriado', 'Cả ngày nghỉ lễ'],
  ['Robotics Club', 'Club de robótica', 'Clube de robótica', 'Câu lạc bộ người máy'],
  ['Art Studio', 'Taller de arte', 'Ateliê de arte', 'Xưởng mỹ thuật'],
  ['Soccer Skills', 'Habilidades de fútbol', 'Habilidades de futebol', 'Kỹ năng bóng đá'],
  ['Drop-in Day', 'Día sin reserva', 'Dia avulso', 'Ngày gửi trẻ linh hoạt'],
  // activities: Northridge
  ['Before School', 'Antes de clases', 'Antes da escola', 'Trước giờ học'],
  ['After School', 'Después de clases', 'Depois da escola', 'Sau giờ học'],
  ['Camp Week', 'Semana de campamento', 'Semana de acampamento', 'Tuần trại hè'],
  ['Spring Break Day', 'Día de vacaciones de primavera', 'Dia de férias de primavera', 'Ngày nghỉ xuân'],
  ['Morning Readiness', 'Preparación matutina', 'Preparação matinal', 'Chuẩn bị buổi sáng'],
  ['Chess & Coding', 'Ajedrez y programación', 'Xadrez e programação', 'Cờ vua và lập trình'],
  // the parent application: optional fees and financial assistance agencies
  ['Camp T-shirt', 'Camiseta del campamento', 'Camiseta do acampamento', 'Áo thun trại hè'],
  ['Field trip fund', 'Fondo para excursiones', 'Fundo para passeios', 'Quỹ dã ngoại'],
  ['City Child Care Assistance', 'Asistencia municipal para el cuidado infantil', 'Auxílio municipal para cuidados infantis', 'Hỗ trợ giữ trẻ của thành phố'],
  ['Community Foundation Scholarship', 'Beca de la Fundación Comunitaria', 'Bolsa da Fundação Comunitária', 'Học bổng của Quỹ Cộng đồng'],
];

const BY_ENGLISH = new Map(ROWS.map(([en, es, pt, vi]) => [en, { es, pt, vi }]));

/**
 * The translations column of a seeded row: each named field's English text in es, pt and vi. A text
 * missing from the table above stops the seed, so no demo text stays English by accident.
 */
export function texts(fields: Record<string, string>): ProviderTexts {
  const out: ProviderTexts = {};
  for (const [field, en] of Object.entries(fields)) {
    const t = BY_ENGLISH.get(en);
    if (!t) throw new Error(`server/seed/texts.ts has no translations of ${JSON.stringify(en)}`);
    out[field] = t;
  }
  return out;
}

/**
 * The English texts the seed stores with a different text in `lang` (the tests look for none of them
 * on a page in that language; a word that reads the same, such as Diabetes in Spanish, is left out).
 */
export function englishTextsNotIn(lang: 'es' | 'pt' | 'vi'): string[] {
  return [...BY_ENGLISH].filter(([en, t]) => t[lang] !== en).map(([en]) => en);
}

/**
 * What a page in `lang` must not show: the text pieces (between HTML tags) of every English text whose
 * translation differs, less the pieces the translation keeps (a temperature, a name).
 */
export function englishPiecesNotIn(lang: 'es' | 'pt' | 'vi'): string[] {
  const pieces = (html: string) => html.split(/<[^>]*>/).map((p) => p.trim()).filter((p) => /\p{L}/u.test(p));
  const out = new Set<string>();
  for (const [en, translations] of BY_ENGLISH) {
    // 'English' is also the language switch's own name for English, shown in every language
    if (en === 'English') continue;
    const t = translations[lang];
    if (t === en) continue;
    const kept = new Set(pieces(t));
    for (const p of pieces(en)) if (!kept.has(p)) out.add(p);
  }
  return [...out];
}
